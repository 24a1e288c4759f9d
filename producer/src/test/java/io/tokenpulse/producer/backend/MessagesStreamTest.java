package io.tokenpulse.producer.backend;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The anthropic-messages backend reading recorded Messages API streams (MessagesEventReader through the tracker).
 *
 * <p>The wire format checked against Anthropic's published page, read 2026-11-28:
 * https://platform.claude.com/docs/en/build-with-claude/streaming (formerly docs.anthropic.com/en/docs/
 * build-with-claude/streaming): named events ({@code event: <type>}, the JSON's {@code type} the same);
 * {@code message_start} with {@code usage.input_tokens} (cache reads and writes counted apart in
 * {@code cache_read_input_tokens} and {@code cache_creation_input_tokens}); per content block
 * {@code content_block_start}, {@code content_block_delta} ({@code text_delta} with {@code text},
 * {@code thinking_delta} with {@code thinking}, {@code signature_delta}, {@code input_json_delta}) and
 * {@code content_block_stop}; {@code message_delta} with the cumulative {@code usage.output_tokens};
 * {@code message_stop}; any number of {@code ping} events; an {@code error} event
 * ({@code {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}}) after the 200;
 * and event types added later, to be ignored.
 */
class MessagesStreamTest {

    private static final String FULL = StreamReplay.fixture("anthropic-messages-thinking.sse");

    @Test
    void textAndThinkingDeltasAreTimingEventsAndUsageJoinsStartAndDelta() {
        StreamReplay r = StreamReplay.of("anthropic-messages", FULL);
        // message_start, block start, ping: nothing; thinking delta; signature delta, block stop,
        // block start: nothing; 2 text deltas; block stop, message_delta, message_stop
        assertThat(r.seqs()).containsExactly(-1, -1, -1, 0, -1, -1, -1, 1, 2, -1, -1, -1);
        RequestOutcome o = r.outcome();
        assertThat(o.success()).isTrue();
        assertThat(o.generatedText()).isEqualTo("Hello café 🙂");
        assertThat(o.reasoning().text()).isEqualTo("Let me think.");
        assertThat(o.firstNs()).isEqualTo(r.arrivals().get(3));
        assertThat(o.reasoning().firstAnswerNs()).isEqualTo(r.arrivals().get(7));
        assertThat(o.lastNs())
                .as("E2EL runs to message_stop")
                .isEqualTo(r.arrivals().get(11));
        // input: 21 new + 4 read from the cache, the 4 the cached tokens (kept when message_delta's usage
        // follows); output from message_delta, not message_start's placeholder 1
        assertThat(o.usage()).isEqualTo(new StreamEvent.Usage(25, 9, null, 4));
        assertThat(o.reportedOutputTokens()).isEqualTo(9);
    }

    @Test
    void aStreamWithoutMessageStopFailsNamingIt() {
        StreamReplay r = StreamReplay.of("anthropic-messages", StreamReplay.withoutLastEvent(FULL));
        assertThat(r.steps()).hasSize(11);
        assertThat(r.outcome().success()).isFalse();
        assertThat(r.outcome().error()).isEqualTo("stream ended without message_stop");
        assertThat(r.outcome().usage()).isEqualTo(new StreamEvent.Usage(25, 9, null, 4));
    }

    @Test
    void anErrorEventFailsWithItsMessage() {
        String overloaded = FULL.substring(0, FULL.indexOf("event: content_block_delta"))
                + "event: error\n"
                + "data: {\"type\": \"error\", \"error\": {\"type\": \"overloaded_error\", \"message\": \"Overloaded\"}}\n\n";
        RequestOutcome o = StreamReplay.of("anthropic-messages", overloaded).outcome();
        assertThat(o.success()).isFalse();
        assertThat(o.error()).isEqualTo("server error: Overloaded");
    }

    @Test
    void aCompleteStreamWithoutDeltasStillFailsForWantOfAFirstToken() {
        String empty = "event: message_start\n"
                + "data: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":3,\"output_tokens\":1}}}\n\n"
                + "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
        RequestOutcome o = StreamReplay.of("anthropic-messages", empty).outcome();
        assertThat(o.success()).isFalse();
        assertThat(o.error()).isEqualTo("no streamed event carried choices");
    }

    @Test
    void pingsAndEventTypesAddedLaterAreIgnoredAndAMessageDeltaMayRepeatTheInputCounts() {
        String stream = "event: message_start\n"
                + "data: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":10,"
                + "\"cache_creation_input_tokens\":0,\"cache_read_input_tokens\":6,\"output_tokens\":1}}}\n\n"
                + "event: ping\ndata: {\"type\": \"ping\"}\n\n"
                + "event: content_block_start\n"
                + "data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"
                + "event: content_block_delta\n"
                + "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hi\"}}\n\n"
                + "event: ping\ndata: {\"type\": \"ping\"}\n\n"
                + "event: content_block_annotation\ndata: {\"type\":\"content_block_annotation\",\"index\":0}\n\n"
                + "event: content_block_delta\n"
                + "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\" there\"}}\n\n"
                + "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n"
                + "event: message_delta\n"
                + "data: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\",\"stop_sequence\":null},"
                + "\"usage\":{\"input_tokens\":10,\"cache_creation_input_tokens\":0,\"cache_read_input_tokens\":6,"
                + "\"output_tokens\":2}}\n\n"
                + "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
        StreamReplay r = StreamReplay.of("anthropic-messages", stream);

        assertThat(r.seqs()).containsExactly(-1, -1, -1, 0, -1, -1, 1, -1, -1, -1);
        RequestOutcome o = r.outcome();
        assertThat(o.success()).as(o.error()).isTrue();
        assertThat(o.generatedText()).isEqualTo("Hi there");
        assertThat(o.usage()).isEqualTo(new StreamEvent.Usage(16, 2, null, 6));
    }
}
