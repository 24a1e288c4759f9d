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
import io.tokenpulse.simulator.faults.Fault;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The openai-responses and anthropic-messages backends against the real simulator through the
 * load generator's real request path (as {@link BackendWireFormatsIT} does for vLLM's backends):
 * the backend builds the request, the streaming client sends it, {@link StreamReader} feeds the
 * backend's tracker. The simulator plays a reasoning model whose first 2 tokens are thinking.
 */
class TypedEventBackendsIT {

    private static final int OUTPUT_TOKENS = 6;
    private static final long TTFT_NS = 40_000_000;

    private static SimulatorServer server;
    private static StreamingHttpClient client;

    @BeforeAll
    static void start() throws InterruptedException {
        server = SimulatorServer.start(SimulatorConfig.deterministic(Duration.ofNanos(TTFT_NS), Duration.ofMillis(10))
                .withTokenizer(TokenizerLoader.fromEnvironment().load("gpt2"))
                .withReasoningTokens(2));
        client = new StreamingHttpClient(HttpClientSettings.defaults());
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
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

    private static RequestOutcome send(String backendName, Map<String, String> headers) throws Exception {
        Backend backend = Backends.get(backendName);
        BackendSettings settings = new BackendSettings(
                URI.create(server.baseUri() + Backends.defaultEndpoint(backendName)),
                SimulatorConfig.DEFAULT_MODEL,
                "sk-test",
                headers,
                BackendSettings.Sampling.GREEDY);
        HttpCall call =
                backend.buildRequest(settings, new PromptRequest("typed-1", "one two three four", OUTPUT_TOKENS));
        Map<String, String> sent = new LinkedHashMap<>();
        call.headers().forEach(h -> sent.put(h.name(), h.value()));
        Recording reading = new Recording(backend.newResponse());
        long sentNs = System.nanoTime();
        client.send(new StreamRequest(call.uri(), sent, call.body()), reading);
        RequestOutcome outcome = reading.outcome.get(10, TimeUnit.SECONDS);
        assertThat(reading.steps).extracting(ResponseTracker.Step::seq).containsExactly(0, 1, 2, 3, 4, 5);
        assertThat(outcome.firstNs() - sentNs).as("TTFT").isGreaterThanOrEqualTo(TTFT_NS);
        return outcome;
    }

    @ParameterizedTest
    @CsvSource({"openai-responses", "anthropic-messages"})
    void readsThinkingAnswerAndUsageAsTheSimulatorWritesThem(String backend) throws Exception {
        RequestOutcome o = send(backend, Map.of());

        assertThat(o.success()).as(o.error()).isTrue();
        assertThat(o.chunkEvents()).isEqualTo(OUTPUT_TOKENS);
        assertThat(o.reasoning().text()).isEqualTo(" the".repeat(2));
        assertThat(o.generatedText()).isEqualTo(" the".repeat(OUTPUT_TOKENS - 2));
        assertThat(o.reasoning().firstAnswerNs()).isGreaterThan(o.firstNs());
        assertThat(o.lastNs()).isGreaterThanOrEqualTo(o.reasoning().firstAnswerNs());
        assertThat(o.reportedOutputTokens()).isEqualTo(OUTPUT_TOKENS);
        assertThat(o.usage().promptTokens()).isPositive();
        assertThat(o.doneSeen()).isFalse();
    }

    @ParameterizedTest
    @CsvSource({"openai-responses, response.completed", "anthropic-messages, message_stop"})
    void aStreamWithoutItsClosingEventFailsNamingIt(String backend, String closingEvent) throws Exception {
        RequestOutcome o = send(backend, Map.of(Fault.HEADER, "no-done"));

        assertThat(o.success()).isFalse();
        assertThat(o.error()).isEqualTo("stream ended without " + closingEvent);
        assertThat(o.chunkEvents()).as("its timing is kept").isEqualTo(OUTPUT_TOKENS);
    }
}
