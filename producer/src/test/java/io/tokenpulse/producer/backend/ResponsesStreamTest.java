package io.tokenpulse.producer.backend;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The openai-responses backend reading recorded Responses API streams (ResponsesEventReader through the tracker).
 *
 * <p>The wire format checked against OpenAI's published pages, read 2026-11-28: the streaming guide
 * https://developers.openai.com/api/docs/guides/streaming-responses?api-mode=responses (semantic events, each
 * {@code event: <type>} plus a JSON {@code data} with that {@code type} and a {@code sequence_number};
 * {@code response.created}, {@code response.output_text.delta}, {@code response.completed}, {@code error}) and
 * the API reference's streaming events it links (https://platform.openai.com/docs/api-reference/responses-streaming:
 * {@code response.reasoning_summary_text.delta}, {@code response.reasoning_text.delta}, {@code response.incomplete},
 * {@code response.failed} with {@code response.error}, {@code error} with top-level {@code code}/{@code message},
 * {@code response.usage} with {@code input_tokens_details.cached_tokens} and
 * {@code output_tokens_details.reasoning_tokens}; no {@code [DONE]}).
 */
class ResponsesStreamTest {

    private static final String FULL = StreamReplay.fixture("openai-responses-reasoning.sse");

    @Test
    void deltasAreTimingEventsAndTheCompletedEventGivesUsageAndLast() {
        StreamReplay r = StreamReplay.of("openai-responses", FULL);
        // created, in_progress, item added: nothing; 2 reasoning deltas; 4 bookkeeping events;
        // 2 text deltas; 3 done events; completed
        assertThat(r.seqs()).containsExactly(-1, -1, -1, 0, 1, -1, -1, -1, -1, 2, 3, -1, -1, -1, -1);
        RequestOutcome o = r.outcome();
        assertThat(o.success()).isTrue();
        assertThat(o.chunkEvents()).isEqualTo(4);
        assertThat(o.generatedText()).isEqualTo("Hello café 🙂");
        assertThat(o.reasoning().text()).isEqualTo("Let me think.");
        assertThat(o.reasoning().events()).isEqualTo(2);
        // TTFT at the first reasoning delta, TTFO at the first answer delta, E2EL at response.completed
        assertThat(o.firstNs()).isEqualTo(r.arrivals().get(3));
        assertThat(o.reasoning().firstAnswerNs()).isEqualTo(r.arrivals().get(9));
        assertThat(o.lastNs()).isEqualTo(r.arrivals().get(14));
        // usage.input_tokens_details.cached_tokens is the prefix-cache hit, as chat's prompt_tokens_details
        assertThat(o.usage()).isEqualTo(new StreamEvent.Usage(12, 7, 3, 4));
        assertThat(o.reportedOutputTokens()).isEqualTo(7);
        assertThat(o.doneSeen()).isFalse();
    }

    @Test
    void aStreamWithoutResponseCompletedFailsNamingIt() {
        StreamReplay r = StreamReplay.of("openai-responses", StreamReplay.withoutLastEvent(FULL));
        assertThat(r.steps()).hasSize(14);
        assertThat(r.outcome().success()).isFalse();
        assertThat(r.outcome().error()).isEqualTo("stream ended without response.completed");
        assertThat(r.outcome().chunkEvents()).as("the timing seen is kept").isEqualTo(4);
    }

    @Test
    void responseIncompleteClosesAStreamCutAtMaxOutputTokens() {
        String incomplete = StreamReplay.withoutLastEvent(FULL)
                + "event: response.incomplete\n"
                + "data: {\"type\":\"response.incomplete\",\"sequence_number\":14,\"response\":{\"status\":\"incomplete\","
                + "\"incomplete_details\":{\"reason\":\"max_output_tokens\"},\"usage\":{\"input_tokens\":12,"
                + "\"output_tokens\":16,\"output_tokens_details\":{\"reasoning_tokens\":3}}}}\n\n";
        RequestOutcome o = StreamReplay.of("openai-responses", incomplete).outcome();
        assertThat(o.success()).isTrue();
        assertThat(o.reportedOutputTokens()).isEqualTo(16);
    }

    @Test
    void responseFailedFailsWithTheServersMessage() {
        String failed = StreamReplay.withoutLastEvent(FULL)
                + "event: response.failed\n"
                + "data: {\"type\":\"response.failed\",\"sequence_number\":14,\"response\":{\"status\":\"failed\","
                + "\"error\":{\"code\":\"server_error\",\"message\":\"The model   crashed\\nmid-way\"}}}\n\n";
        RequestOutcome o = StreamReplay.of("openai-responses", failed).outcome();
        assertThat(o.success()).isFalse();
        assertThat(o.error()).isEqualTo("server error: The model crashed mid-way");
    }

    @Test
    void anErrorEventFailsWithItsMessage() {
        String error = "event: error\n"
                + "data: {\"type\":\"error\",\"code\":\"ERR_SOMETHING\",\"message\":\"Something went wrong\","
                + "\"param\":null,\"sequence_number\":1}\n\n";
        RequestOutcome o = StreamReplay.of("openai-responses", error).outcome();
        assertThat(o.success()).isFalse();
        assertThat(o.error()).isEqualTo("server error: Something went wrong");
    }

    @Test
    void anErrorEventWithItsMessageNestedInErrorFailsWithIt() {
        // as OpenAI's servers were recorded sending it, before response.failed
        String error = "event: error\n"
                + "data: {\"type\":\"error\",\"sequence_number\":2,\"error\":{\"code\":\"unknown-error\","
                + "\"message\":\"Foobar\",\"param\":null}}\n\n";
        RequestOutcome o = StreamReplay.of("openai-responses", error).outcome();
        assertThat(o.success()).isFalse();
        assertThat(o.error()).isEqualTo("server error: Foobar");
    }

    @Test
    void anEventWithoutATypeIsUnreadable() {
        RequestOutcome o = StreamReplay.of("openai-responses", FULL.replace("\"type\":\"response.in_progress\",", ""))
                .outcome();
        assertThat(o.success()).isFalse();
        assertThat(o.error()).isEqualTo("malformed event: an event without a \"type\"");
    }
}
