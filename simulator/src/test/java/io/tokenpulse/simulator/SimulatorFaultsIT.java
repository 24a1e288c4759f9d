package io.tokenpulse.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tokenpulse.simulator.engine.OutputLengths;
import io.tokenpulse.simulator.faults.Fault;
import io.tokenpulse.simulator.faults.FaultPlan;
import io.tokenpulse.tokenizers.Tokenizer;
import io.tokenpulse.tokenizers.TokenizerLoader;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SimulatorFaultsIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final String STREAM_6 =
            "{\"prompt\":\"a b c\",\"max_tokens\":6,\"ignore_eos\":true,\"stream\":true}";
    private SimulatorServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private void start(SimulatorConfig config) throws InterruptedException {
        server = SimulatorServer.start(config);
    }

    private static SimulatorConfig fast() {
        return SimulatorConfig.deterministic(Duration.ofMillis(1), Duration.ofMillis(1));
    }

    private HttpResponse<String> post(String path, String body, String fault) throws Exception {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(server.baseUri().resolve(path)).POST(HttpRequest.BodyPublishers.ofString(body));
        if (fault != null) {
            request.header(Fault.HEADER, fault);
        }
        return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static List<String> events(String sse) {
        List<String> events = new ArrayList<>();
        Stream.of(sse.split("\n\n")).filter(e -> e.startsWith("data: ")).forEach(e -> events.add(e.substring(6)));
        return events;
    }

    @Test
    void rateLimitFaultAnswers429WithRetryAfter() throws Exception {
        start(fast());

        HttpResponse<String> response = post("/v1/completions", STREAM_6, "status=429,retry-after=7");

        assertThat(response.statusCode()).isEqualTo(429);
        assertThat(response.headers().firstValue("retry-after")).hasValue("7");
        assertThat(JSON.readTree(response.body()).at("/error/code").asInt()).isEqualTo(429);
    }

    @Test
    void seededRatesInjectTheSameFaultsEveryRun() throws Exception {
        List<List<Integer>> runs = new ArrayList<>();
        for (int run = 0; run < 2; run++) {
            start(fast().withFaults(new FaultPlan(0.3, 0.3, 0, 1, 0, 3, 0, 0, 0, 0, 0, 0, 1, false, 42)));
            List<Integer> statuses = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                statuses.add(post("/v1/completions", STREAM_6, null).statusCode());
            }
            runs.add(statuses);
            server.close();
            server = null;
        }

        assertThat(runs.get(0)).isEqualTo(runs.get(1)).contains(200, 500, 503);
        assertThat(runs.get(0).stream().filter(s -> s != 200).count()).isBetween(8L, 28L);
    }

    @Test
    void unknownModelGets404InVllmsWords() throws Exception {
        start(fast().withServedModelNames(List.of("served/model")));

        HttpResponse<String> wrong = post("/v1/completions", "{\"model\":\"other\",\"prompt\":\"x\"}", null);
        HttpResponse<String> right = post("/v1/completions", "{\"model\":\"served/model\",\"prompt\":\"x\"}", null);

        assertThat(wrong.statusCode()).isEqualTo(404);
        JsonNode error = JSON.readTree(wrong.body()).get("error");
        assertThat(error.get("message").asText()).isEqualTo("The model `other` does not exist.");
        assertThat(error.get("type").asText()).isEqualTo("NotFoundError");
        assertThat(right.statusCode()).isEqualTo(200);
    }

    @Test
    void promptBeyondTheContextLengthGets400NamingTheLimit() throws Exception {
        start(fast().withMaxModelLen(10));

        HttpResponse<String> tooLong = post("/v1/completions", "{\"prompt\":\"" + "w ".repeat(12) + "\"}", null);
        HttpResponse<String> tooMuchOutput = post("/v1/completions", "{\"prompt\":\"a b c\",\"max_tokens\":8}", null);

        assertThat(tooLong.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(tooLong.body()).at("/error/message").asText())
                .startsWith(
                        "This model's maximum context length is 10 tokens. However, your request has 12 input tokens.");
        assertThat(tooMuchOutput.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(tooMuchOutput.body()).at("/error/message").asText())
                .contains("maximum context length is 10 tokens")
                .contains("(8 > 10 - 3)");
    }

    @Test
    void promptTokensAreCountedWithTheGivenTokenizer() throws Exception {
        Tokenizer gpt2 = TokenizerLoader.fromEnvironment().load("gpt2");
        start(fast().withTokenizer(gpt2));
        String prompt = "Shall I compare thee to a summer's day?";

        HttpResponse<String> response =
                post("/v1/completions", "{\"prompt\":\"" + prompt + "\",\"max_tokens\":1}", null);

        assertThat(JSON.readTree(response.body()).at("/usage/prompt_tokens").asInt())
                .isEqualTo(gpt2.countTokens(prompt))
                .isNotEqualTo(8);
    }

    @Test
    void withoutIgnoreEosOutputLengthsAreDrawnAndStopEarly() throws Exception {
        start(fast().withOutputLengths(new OutputLengths(4, 1)));
        List<Integer> lengths = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            JsonNode body = JSON.readTree(post("/v1/completions", "{\"prompt\":\"x\",\"max_tokens\":50}", null)
                    .body());
            lengths.add(body.at("/usage/completion_tokens").asInt());
            if (body.at("/usage/completion_tokens").asInt() < 50) {
                assertThat(body.at("/choices/0/finish_reason").asText()).isEqualTo("stop");
            }
        }
        JsonNode ignored =
                JSON.readTree(post("/v1/completions", "{\"prompt\":\"x\",\"max_tokens\":50,\"ignore_eos\":true}", null)
                        .body());

        assertThat(lengths).allSatisfy(n -> assertThat(n).isBetween(1, 50));
        assertThat(lengths.stream().distinct().count()).isGreaterThan(2);
        assertThat(ignored.at("/usage/completion_tokens").asInt()).isEqualTo(50);
        assertThat(ignored.at("/choices/0/finish_reason").asText()).isEqualTo("length");
    }

    @Test
    void resetFaultBreaksTheStreamMidway() throws Exception {
        start(fast());

        assertThatThrownBy(() -> post("/v1/completions", STREAM_6, "reset-after=2"))
                .isInstanceOf(IOException.class);
    }

    @Test
    void stallHoldsTheEventsAfterTheFirst() throws Exception {
        start(fast());
        HttpRequest request = HttpRequest.newBuilder(server.baseUri().resolve("/v1/completions"))
                .header(Fault.HEADER, "stall-ms=300,stall-after=1")
                .POST(HttpRequest.BodyPublishers.ofString(STREAM_6))
                .build();
        List<Long> arrivalsNs = new ArrayList<>();

        CLIENT.send(request, HttpResponse.BodyHandlers.ofLines())
                .body()
                .filter(line -> line.startsWith("data: "))
                .forEach(line -> arrivalsNs.add(System.nanoTime()));

        assertThat(arrivalsNs).hasSize(7);
        assertThat(arrivalsNs.get(1) - arrivalsNs.get(0)).isGreaterThan(250_000_000L);
    }

    @Test
    void malformedFaultBreaksTheNamedEventsJson() throws Exception {
        start(fast());

        List<String> events =
                events(post("/v1/completions", STREAM_6, "malformed-at=2").body());

        assertThat(JSON.readTree(events.get(0)).at("/choices/0/text").asText()).isEqualTo("tok0 ");
        assertThatThrownBy(() -> JSON.readTree(events.get(1))).isInstanceOf(IOException.class);
        assertThat(events).last().isEqualTo("[DONE]");
    }

    @Test
    void oversizedFaultSendsAnEventBeyondTenMebibytes() throws Exception {
        start(fast());

        List<String> events =
                events(post("/v1/completions", STREAM_6, "oversized").body());

        assertThat(events.get(0).length()).isGreaterThan(10 * 1024 * 1024);
        assertThat(JSON.readTree(events.get(1)).at("/choices/0/text").asText()).isEqualTo("tok1 ");
    }

    @Test
    void severalTokensPerEvent() throws Exception {
        start(fast());

        List<String> events =
                events(post("/v1/completions", STREAM_6, "tokens-per-event=3").body());

        assertThat(events).hasSize(3);
        assertThat(JSON.readTree(events.get(0)).at("/choices/0/text").asText()).isEqualTo("tok0 tok1 tok2 ");
        assertThat(JSON.readTree(events.get(1)).at("/choices/0/finish_reason").asText())
                .isEqualTo("length");
    }

    @Test
    void splitUtf8StillDecodesToWholeCharacters() throws Exception {
        start(fast());

        List<String> events =
                events(post("/v1/completions", STREAM_6, "split-utf8").body());

        assertThat(JSON.readTree(events.get(0)).at("/choices/0/text").asText()).isEqualTo("tok0\u20ac ");
    }

    @Test
    void noDoneLeavesOutTheFinalMarker() throws Exception {
        start(fast());

        List<String> events =
                events(post("/v1/completions", STREAM_6, "no-done").body());

        assertThat(events).hasSize(6).doesNotContain("[DONE]");
    }

    @Test
    void roleOnlyFirstChatChunkHasNoContent() throws Exception {
        start(fast());

        List<String> events = events(post(
                        "/v1/chat/completions",
                        "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":2,\"stream\":true}",
                        "role-only-first")
                .body());

        JsonNode first = JSON.readTree(events.get(0));
        assertThat(first.at("/choices/0/delta/role").asText()).isEqualTo("assistant");
        assertThat(first.at("/choices/0/delta").has("content")).isFalse();
    }

    @Test
    void defaultProfileServesThroughTheBatchingEngine() throws Exception {
        start(SimulatorConfig.defaultProfile("m", 100));
        long startNs = System.nanoTime();

        HttpResponse<String> response = post(
                "/v1/completions",
                "{\"model\":\"m\",\"prompt\":\"" + "w ".repeat(80)
                        + "\",\"max_tokens\":10,\"ignore_eos\":true,\"stream\":true}",
                null);
        double elapsedMs = (System.nanoTime() - startNs) / 1e6;

        assertThat(events(response.body())).hasSize(11);
        // one 80-token request: 335 ms TTFT + 9 x 49 ms at full speed, a hundredth of it here
        assertThat(elapsedMs).isBetween(5.0, 200.0);
    }
}
