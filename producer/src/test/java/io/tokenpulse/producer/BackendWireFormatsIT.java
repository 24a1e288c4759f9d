package io.tokenpulse.producer;

import static org.assertj.core.api.Assertions.assertThat;

import io.tokenpulse.producer.backend.Backend;
import io.tokenpulse.producer.backend.BackendSettings;
import io.tokenpulse.producer.backend.Backends;
import io.tokenpulse.producer.backend.HttpCall;
import io.tokenpulse.producer.backend.PromptRequest;
import io.tokenpulse.producer.backend.RequestOutcome;
import io.tokenpulse.producer.backend.ResponseTracker;
import io.tokenpulse.producer.http.HttpClientSettings;
import io.tokenpulse.producer.http.StreamRequest;
import io.tokenpulse.producer.http.StreamingHttpClient;
import io.tokenpulse.simulator.SimulatorConfig;
import io.tokenpulse.simulator.SimulatorServer;
import io.tokenpulse.tokenizers.Tokenizer;
import io.tokenpulse.tokenizers.TokenizerLoader;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every new backend's wire format as the real simulator writes it, read by the load generator's
 * real request path: the backend builds the request, the streaming client sends it, and
 * {@link StreamReader} feeds the backend's tracker. Deterministic simulator: first token 60 ms
 * after the request, then one every 20 ms, never earlier. On this shared machine timers can be
 * tens of ms late (and the next event then catches up), so timing is checked by what cannot
 * move: lower bounds from the schedule, exact identities, and a generous upper bound.
 */
class BackendWireFormatsIT {

    private static final long TTFT_NS = 60_000_000;
    private static final long GAP_NS = 20_000_000;
    /** Lateness allowed on a shared, loaded machine (load averages of 15 on 2 cores were seen). */
    private static final long SLACK_NS = 1_000_000_000;

    private static final int OUTPUT_TOKENS = 6;

    private static SimulatorServer server;
    private static StreamingHttpClient client;
    private static Tokenizer tokenizer;

    @BeforeAll
    static void start() throws InterruptedException {
        tokenizer = TokenizerLoader.fromEnvironment().load("gpt2");
        server =
                SimulatorServer.start(SimulatorConfig.deterministic(Duration.ofNanos(TTFT_NS), Duration.ofNanos(GAP_NS))
                        .withTokenizer(tokenizer));
        client = new StreamingHttpClient(HttpClientSettings.defaults());
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
    }

    /** One request's reading: each tracker step with its arrival, the outcome, and when it was sent. */
    record Reading(List<ResponseTracker.Step> steps, RequestOutcome outcome, long sentNs) {
        long ttftNs() {
            return outcome.firstNs() - sentNs;
        }

        long e2elNs() {
            return outcome.lastNs() - sentNs;
        }

        List<Long> itlNs() {
            return steps.stream()
                    .filter(s -> s.seq() > 0)
                    .map(ResponseTracker.Step::gapNs)
                    .toList();
        }
    }

    private static final class Recording extends StreamReader {
        final List<ResponseTracker.Step> steps = new ArrayList<>();
        final CompletableFuture<RequestOutcome> outcome = new CompletableFuture<>();

        Recording(ResponseTracker tracker) {
            super(tracker);
        }

        @Override
        void responseStarted() {}

        @Override
        void chunk(ResponseTracker.Step step, long arrivalNs, int bytes) {
            steps.add(step);
        }

        @Override
        void ended(RequestOutcome result, long endNs) {
            outcome.complete(result);
        }
    }

    /** The second of two identical requests: the first loads classes on both sides (100+ ms once), not timed. */
    private static Reading send(String backendName, String endpoint, boolean ignoreEos) throws Exception {
        sendOnce(backendName, endpoint, ignoreEos);
        return sendOnce(backendName, endpoint, ignoreEos);
    }

    private static Reading sendOnce(String backendName, String endpoint, boolean ignoreEos) throws Exception {
        Backend backend = Backends.get(backendName);
        BackendSettings settings = new BackendSettings(
                URI.create(server.baseUri() + endpoint),
                SimulatorConfig.DEFAULT_MODEL,
                null,
                Map.of(),
                new BackendSettings.Sampling(null, null, null, null, null, ignoreEos));
        HttpCall call =
                backend.buildRequest(settings, new PromptRequest("wire-1", "one two three four", OUTPUT_TOKENS));
        Map<String, String> headers = new LinkedHashMap<>();
        call.headers().forEach(h -> headers.put(h.name(), h.value()));
        Recording reading = new Recording(backend.newResponse());
        client.send(new StreamRequest(call.uri(), headers, call.body()), reading);
        RequestOutcome outcome = reading.outcome.get(10, TimeUnit.SECONDS);
        return new Reading(reading.steps, outcome, reading.sentNs());
    }

    /** One timing event per token: TTFT at the first token's due time, E2EL at the last one's. */
    private static void assertStreamedTiming(Reading r) {
        assertThat(r.outcome().chunkEvents()).isEqualTo(OUTPUT_TOKENS);
        assertThat(r.ttftNs()).isBetween(TTFT_NS, TTFT_NS + SLACK_NS);
        long lastDueNs = TTFT_NS + (OUTPUT_TOKENS - 1) * GAP_NS;
        assertThat(r.e2elNs()).isBetween(lastDueNs, lastDueNs + SLACK_NS).isGreaterThan(r.ttftNs());
        // one ITL sample per token event after the first, adding up to E2EL - TTFT; a usage-only last
        // event (audio) may come in a later read: vLLM's latency counts it, its ITL does not
        assertThat(r.itlNs()).hasSize(OUTPUT_TOKENS - 1);
        assertThat(r.itlNs().stream().mapToLong(Long::longValue).sum())
                .isBetween(r.e2elNs() - r.ttftNs() - SLACK_NS, r.e2elNs() - r.ttftNs());
    }

    @Test
    void tgiCountsEveryTokenEventAndKeepsTheLastGeneratedText() throws Exception {
        Reading r = send("tgi", "/generate_stream", true);

        assertThat(r.outcome().success()).as(r.outcome().error()).isTrue();
        assertStreamedTiming(r);
        assertThat(r.outcome().generatedText()).isEqualTo(" the".repeat(OUTPUT_TOKENS));
        assertThat(r.outcome().usage()).isNull();
        // no usage: output tokens are the tokenizer's count of the text, which the simulator spells to match
        assertThat(tokenizer.countTokens(r.outcome().generatedText())).isEqualTo(OUTPUT_TOKENS);
        assertThat(r.outcome().doneSeen()).isFalse();
    }

    @Test
    void tensorRtLlmConcatenatesTextOutputOfEveryEvent() throws Exception {
        Reading r = send("tensorrt-llm", "/v2/models/ensemble/generate_stream", true);

        assertThat(r.outcome().success()).as(r.outcome().error()).isTrue();
        assertStreamedTiming(r);
        assertThat(r.outcome().generatedText()).isEqualTo(" the".repeat(OUTPUT_TOKENS));
        assertThat(tokenizer.countTokens(r.outcome().generatedText())).isEqualTo(OUTPUT_TOKENS);
    }

    @Test
    void deepSpeedMiiIsOneEventWhenTheWholeBodyArrivedSoTtftIsTheLatency() throws Exception {
        Reading r = send("deepspeed-mii", "/v1/completions", false);

        assertThat(r.outcome().success()).as(r.outcome().error()).isTrue();
        assertThat(r.outcome().chunkEvents()).isEqualTo(1);
        assertThat(r.itlNs()).isEmpty();
        assertThat(r.outcome().firstNs()).isEqualTo(r.outcome().lastNs());
        long wholeNs = TTFT_NS + (OUTPUT_TOKENS - 1) * GAP_NS;
        assertThat(r.ttftNs()).isBetween(wholeNs, wholeNs + SLACK_NS);
        assertThat(r.outcome().generatedText()).isEqualTo(" the".repeat(OUTPUT_TOKENS));
        // MII's usage is ignored, as vLLM ignores it: the tokenizer counts the text
        assertThat(r.outcome().usage()).isNull();
        assertThat(tokenizer.countTokens(r.outcome().generatedText())).isEqualTo(OUTPUT_TOKENS);
    }

    @Test
    void openAiAudioReadsTranscriptionChunksWithTokensPerEventAndServerUsage() throws Exception {
        Reading r = send("openai-audio", "/v1/audio/transcriptions", false);

        assertThat(r.outcome().success()).as(r.outcome().error()).isTrue();
        assertStreamedTiming(r);
        assertThat(r.outcome().generatedText()).isEqualTo(" the".repeat(OUTPUT_TOKENS));
        // continuous usage stats: every chunk says it carried one token
        assertThat(r.steps()).extracting(ResponseTracker.Step::tokens).containsOnly(1);
        // 5 s of synthetic audio = 500 log-mel frames, the prompt length vLLM reports for Whisper
        assertThat(r.outcome().usage().promptTokens()).isEqualTo(500);
        assertThat(r.outcome().reportedOutputTokens()).isEqualTo(OUTPUT_TOKENS);
        assertThat(r.outcome().doneSeen()).isTrue();
    }
}
