package io.tokenpulse.producer.backend;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.tokenpulse.producer.sse.SseParser;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ResponseTrackerTest {

    /** A recorded stream read through the SSE parser, one byte per read, stamped by byte index. */
    record Replay(List<ResponseTracker.Step> steps, List<Long> arrivals, RequestOutcome outcome) {}

    private static Replay replay(String backend, String fixture) throws IOException {
        byte[] body;
        try (InputStream in = ResponseTrackerTest.class.getResourceAsStream("/io/tokenpulse/producer/sse/" + fixture)) {
            body = in.readAllBytes();
        }
        ResponseTracker tracker = Backends.get(backend).newResponse();
        List<ResponseTracker.Step> steps = new ArrayList<>();
        List<Long> arrivals = new ArrayList<>();
        SseParser parser = new SseParser((data, offset, length, arrivalNs) -> {
            steps.add(tracker.onEvent(data, offset, length, arrivalNs));
            arrivals.add(arrivalNs);
        });
        for (int i = 0; i < body.length; i++) {
            parser.feed(body, i, 1, 1_000 + i);
        }
        RequestOutcome outcome = tracker.finish(200, parser.finish().doneSeen());
        return new Replay(steps, arrivals, outcome);
    }

    @Test
    void vllmCompletionsStreamLastIsTheLastChoicesEventNotTheUsageTail() throws IOException {
        Replay r = replay("vllm", "vllm-completions-usage.sse");
        assertThat(r.steps()).hasSize(9);
        assertThat(r.steps()).extracting(ResponseTracker.Step::seq).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, -1);
        RequestOutcome o = r.outcome();
        assertThat(o.success()).isTrue();
        assertThat(o.error()).isEmpty();
        assertThat(o.chunkEvents()).isEqualTo(8);
        assertThat(o.firstNs()).isEqualTo(r.arrivals().get(0));
        assertThat(o.lastNs()).isEqualTo(r.arrivals().get(7));
        assertThat(o.generatedText()).isEqualTo(" The café served 日本 tea 🙂\n");
        assertThat(o.usage()).isEqualTo(new StreamEvent.Usage(12, 8));
        assertThat(o.reportedOutputTokens()).isEqualTo(8);
        assertThat(o.doneSeen()).isTrue();
        // ITL samples are the gaps between consecutive choices events and add up to E2EL - TTFT.
        long gaps = r.steps().stream().mapToLong(ResponseTracker.Step::gapNs).sum();
        assertThat(gaps).isEqualTo(o.lastNs() - o.firstNs());
        assertThat(r.steps().get(3).gapNs())
                .isEqualTo(r.arrivals().get(3) - r.arrivals().get(2));
    }

    @Test
    void chatRoleOnlyFirstChunkIsFirstAndUsageOnlyTailIsLast() throws IOException {
        Replay r = replay("openai-chat", "vllm-chat-usage.sse");
        RequestOutcome o = r.outcome();
        assertThat(o.success()).isTrue();
        assertThat(o.chunkEvents()).isEqualTo(8); // role-only + 6 content + finish
        assertThat(r.steps().get(0).seq())
                .as("the role-only chunk, without text, is the first")
                .isZero();
        assertThat(o.firstNs()).isEqualTo(r.arrivals().get(0));
        assertThat(o.lastNs()).isEqualTo(r.arrivals().get(8));
        assertThat(r.steps().get(8).isChunk()).isFalse();
        assertThat(o.generatedText()).isEqualTo("Grüße aus Köln — 你好!");
        assertThat(o.usage()).isEqualTo(new StreamEvent.Usage(17, 7));
        assertThat(o.emptyTextEvents())
                .as("the role-only first chunk and the finish_reason chunk carried no text")
                .containsExactly(0, 7);
    }

    @Test
    void emptyEventsMidStreamAreListedAndThinkingCountsAsText() {
        RequestOutcome chat = run(
                "openai-chat",
                200,
                "{\"choices\":[{\"delta\":{\"reasoning_content\":\"hm\"}}]}",
                DELTA,
                "{\"choices\":[{\"delta\":{\"content\":\"\"}}]}",
                "{\"choices\":[{\"delta\":{}}]}",
                DELTA,
                USAGE);
        assertThat(chat.chunkEvents()).isEqualTo(5);
        assertThat(chat.emptyTextEvents()).containsExactly(2, 3);
        // the general reader (TGI's events), not the OpenAI fast path: a special token without text
        RequestOutcome tgi = run(
                "tgi",
                200,
                "{\"index\":1,\"token\":{\"text\":\"a\"}}",
                "{\"index\":2,\"token\":{\"text\":\"\",\"special\":true}}",
                "{\"index\":3,\"token\":{\"text\":\"b\"},\"generated_text\":\"ab\"}");
        assertThat(tgi.emptyTextEvents()).containsExactly(1);
    }

    private static RequestOutcome run(String backend, int status, String... payloads) {
        ResponseTracker tracker = Backends.get(backend).newResponse();
        long ns = 100;
        for (String p : payloads) {
            byte[] b = p.getBytes(UTF_8);
            tracker.onEvent(b, 0, b.length, ns);
            ns += 10;
        }
        return tracker.finish(status, true);
    }

    private static final String TEXT = "{\"choices\":[{\"text\":\"a\"}]}";
    private static final String DELTA = "{\"choices\":[{\"delta\":{\"content\":\"a\"}}]}";
    private static final String USAGE = "{\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":2}}";
    private static final String ERROR = "{\"error\":{\"message\":\"KV cache exhausted\"}}";

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "completions ok                          | vllm        | 200 | TEXT;TEXT;USAGE | true  | ''",
                "completions, HTTP 503                   | vllm        | 503 | ''              | false | HTTP 503",
                "completions, only usage                 | vllm        | 200 | USAGE           | false | no streamed event carried choices",
                "completions, empty stream               | sglang      | 200 | ''              | false | no streamed event carried choices",
                "completions, error event mid-stream     | vllm        | 200 | TEXT;ERROR;TEXT | false | server error: KV cache exhausted",
                "completions, malformed event            | vllm        | 200 | TEXT;{oops      | false | malformed event:",
                "chat ok                                 | openai-chat | 200 | DELTA;USAGE     | true  | ''",
                "chat without any choices event          | openai-chat | 200 | USAGE           | false | no streamed event carried choices",
                "chat, HTTP 400                          | openai-chat | 400 | ''              | false | HTTP 400",
            })
    void successRules(String why, String backend, int status, String events, boolean success, String error) {
        String[] payloads = events.isEmpty()
                ? new String[0]
                : events.replace("TEXT", TEXT)
                        .replace("DELTA", DELTA)
                        .replace("USAGE", USAGE)
                        .replace("ERROR", ERROR)
                        .split(";");
        RequestOutcome o = run(backend, status, payloads);
        assertThat(o.success()).isEqualTo(success);
        assertThat(o.httpStatus()).isEqualTo(status);
        if (success) {
            assertThat(o.error()).isEmpty();
        } else {
            assertThat(o.error()).startsWith(error);
        }
    }

    @ParameterizedTest(name = "{0}: last at {2}")
    @CsvSource({
        "vllm,        TEXT;TEXT;USAGE, 110",
        "openai-chat, DELTA;DELTA;USAGE, 120",
    })
    void usageTailMovesLastOnlyForChat(String backend, String events, long lastNs) {
        String[] payloads = events.replace("TEXT", TEXT)
                .replace("DELTA", DELTA)
                .replace("USAGE", USAGE)
                .split(";");
        RequestOutcome o = run(backend, 200, payloads);
        assertThat(o.firstNs()).isEqualTo(100);
        assertThat(o.lastNs()).isEqualTo(lastNs);
    }

    @Test
    void reasoningChunksAreTimingEventsAndOutputKeptApartFromTheAnswer() {
        ResponseTracker tracker = Backends.get("openai-chat").newResponse();
        String[] events = {
            "{\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"reasoning_content\":\"Let me\"}}]}",
            "{\"choices\":[{\"index\":0,\"delta\":{\"reasoning\":\" think.\"}}]}",
            "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}"
        };
        long t = 1_000;
        for (String event : events) {
            byte[] bytes = event.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            tracker.onEvent(bytes, 0, bytes.length, t += 10);
        }
        RequestOutcome o = tracker.finish(200, true);

        assertThat(o.chunkEvents()).isEqualTo(3);
        assertThat(o.firstNs())
                .as("TTFT stays vLLM's: the first choices event, thinking or not")
                .isEqualTo(1_010);
        assertThat(o.generatedText()).isEqualTo("Hi");
        assertThat(o.reasoning().text()).isEqualTo("Let me think.");
        assertThat(o.reasoning().events()).isEqualTo(2);
        assertThat(o.reasoning().firstAnswerNs())
                .as("the first output token: the first event with answer text")
                .isEqualTo(1_030);
        assertThat(o.emptyTextEvents()).as("thinking is text").isEmpty();
    }

    @Test
    void transportFailureKeepsTimingSeenSoFar() {
        ResponseTracker tracker = Backends.get("vllm").newResponse();
        byte[] b = TEXT.getBytes(UTF_8);
        tracker.onEvent(b, 0, b.length, 500);
        tracker.onEvent(b, 0, b.length, 530);
        RequestOutcome o = tracker.fail(200, "connection reset mid-stream");
        assertThat(o.success()).isFalse();
        assertThat(o.error()).isEqualTo("connection reset mid-stream");
        assertThat(o.chunkEvents()).isEqualTo(2);
        assertThat(o.firstNs()).isEqualTo(500);
        assertThat(o.lastNs()).isEqualTo(530);
        assertThat(o.generatedText()).isEqualTo("aa");
    }

    @Test
    void failureBeforeAnyEventHasNoTiming() {
        RequestOutcome o = Backends.get("vllm").newResponse().fail(0, "connect timed out");
        assertThat(o.firstNs()).isNull();
        assertThat(o.lastNs()).isNull();
        assertThat(o.httpStatus()).isZero();
    }

    @Test
    void continuousUsageGivesTokensPerEvent() {
        ResponseTracker tracker = Backends.get("vllm").newResponse();
        List<Integer> tokens = new ArrayList<>();
        int ns = 0;
        for (String p : List.of(
                "{\"choices\":[{\"text\":\"a\"}],\"usage\":{\"prompt_tokens\":4,\"completion_tokens\":1}}",
                "{\"choices\":[{\"text\":\"bcd\"}],\"usage\":{\"prompt_tokens\":4,\"completion_tokens\":4}}",
                "{\"choices\":[{\"text\":\"e\"}]}")) {
            byte[] b = p.getBytes(UTF_8);
            tokens.add(tracker.onEvent(b, 0, b.length, ns += 10).tokens());
        }
        assertThat(tokens).containsExactly(1, 3, null);
    }

    @Test
    void reportedOutputTokensIgnoresZero() {
        RequestOutcome o =
                run("vllm", 200, TEXT, "{\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":0}}");
        assertThat(o.success()).isTrue();
        assertThat(o.reportedOutputTokens()).isNull();
    }
}
