package io.tokenpulse.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class SimulatorServerIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ConcurrentLinkedQueue<long[]> SENDS = new ConcurrentLinkedQueue<>();
    private static SimulatorServer server;
    private static final HttpClient CLIENT =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @BeforeAll
    static void start() throws InterruptedException {
        server = SimulatorServer.start(SimulatorConfig.deterministic(Duration.ofMillis(50), Duration.ofMillis(10))
                .withSendListener((id, seq, receivedNs, dueNs, sentNs) -> SENDS.add(new long[] {seq, dueNs, sentNs})));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void completionsStreamVllmChunksThenUsageThenDone() throws Exception {
        HttpResponse<String> response = post(
                "/v1/completions",
                "{\"model\":\"m\",\"prompt\":\"one two three\",\"max_tokens\":3,\"stream\":true,"
                        + "\"stream_options\":{\"include_usage\":true}}",
                "req-7");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValue("text/event-stream; charset=utf-8");
        assertThat(response.headers().firstValue("x-request-id")).hasValue("req-7");
        List<String> events = events(response.body());
        assertThat(events).hasSize(5).last().isEqualTo("[DONE]");
        JsonNode first = JSON.readTree(events.get(0));
        assertThat(first.get("id").asText()).isEqualTo("cmpl-req-7");
        assertThat(first.get("object").asText()).isEqualTo("text_completion");
        assertThat(first.at("/choices/0/text").asText()).isEqualTo("tok0 ");
        assertThat(first.at("/choices/0/finish_reason").isNull()).isTrue();
        assertThat(JSON.readTree(events.get(2)).at("/choices/0/finish_reason").asText())
                .isEqualTo("length");
        JsonNode usage = JSON.readTree(events.get(3));
        assertThat(usage.get("choices")).isEmpty();
        assertThat(usage.at("/usage/prompt_tokens").asInt()).isEqualTo(3);
        assertThat(usage.at("/usage/completion_tokens").asInt()).isEqualTo(3);
        assertThat(usage.at("/usage/total_tokens").asInt()).isEqualTo(6);
    }

    @Test
    void chatStreamStartsWithRoleAndHonoursMaxCompletionTokens() throws Exception {
        HttpResponse<String> response = post(
                "/v1/chat/completions",
                "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi there\"}],"
                        + "\"max_completion_tokens\":2,\"max_tokens\":9,\"ignore_eos\":true,\"stream\":true}",
                null);

        List<String> events = events(response.body());
        assertThat(events).hasSize(4);
        JsonNode role = JSON.readTree(events.get(0));
        assertThat(role.get("object").asText()).isEqualTo("chat.completion.chunk");
        assertThat(role.at("/choices/0/delta/role").asText()).isEqualTo("assistant");
        assertThat(JSON.readTree(events.get(1)).at("/choices/0/delta/content").asText())
                .isEqualTo("tok0 ");
        assertThat(JSON.readTree(events.get(2)).at("/choices/0/finish_reason").asText())
                .isEqualTo("length");
    }

    @Test
    void nonStreamedChatReturnsWholeMessageWithUsage() throws Exception {
        HttpResponse<String> response = post(
                "/v1/chat/completions",
                "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":2}",
                null);

        JsonNode body = JSON.readTree(response.body());
        assertThat(body.at("/choices/0/message/content").asText()).isEqualTo("tok0 tok1 ");
        assertThat(body.at("/usage/completion_tokens").asInt()).isEqualTo(2);
    }

    @Test
    void malformedJsonGets400WithOpenAiErrorBody() throws Exception {
        HttpResponse<String> response = post("/v1/completions", "{\"prompt\": ", null);

        assertThat(response.statusCode()).isEqualTo(400);
        JsonNode error = JSON.readTree(response.body()).get("error");
        assertThat(error.get("message").asText()).startsWith("request body is not valid JSON");
        assertThat(error.get("type").asText()).isEqualTo("BadRequestError");
        assertThat(error.get("code").asInt()).isEqualTo(400);
    }

    @Test
    void faultHeaderAnswersWithRequestedStatus() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(server.baseUri().resolve("/v1/completions"))
                .header("x-simulator-fault", "status=503")
                .POST(HttpRequest.BodyPublishers.ofString("{\"prompt\":\"x\",\"stream\":true}"))
                .build();

        HttpResponse<String> response = CLIENT.send(request, HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(JSON.readTree(response.body()).at("/error/code").asInt()).isEqualTo(503);
    }

    @Test
    void healthAndModelsAnswer() throws Exception {
        assertThat(CLIENT.send(
                                HttpRequest.newBuilder(server.baseUri().resolve("/health"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString())
                        .statusCode())
                .isEqualTo(200);
        HttpResponse<String> models = CLIENT.send(
                HttpRequest.newBuilder(server.baseUri().resolve("/v1/models")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(JSON.readTree(models.body()).at("/data/0/id").asText()).isEqualTo(SimulatorConfig.DEFAULT_MODEL);
    }

    @Test
    void everyEventIsLoggedAndNoneIsSentBeforeItsDeadline() throws Exception {
        SENDS.clear();
        post("/v1/completions", "{\"prompt\":\"x\",\"max_tokens\":20,\"stream\":true}", null);

        // The send log is written on the event loop after each write, so the client can see [DONE]
        // before the last entries land. Lateness figures belong to bench/, not to a timed test.
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (SENDS.size() < 21 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        long[] latenessNs = SENDS.stream().mapToLong(s -> s[2] - s[1]).sorted().toArray();
        assertThat(latenessNs).hasSize(21);
        assertThat(latenessNs[0]).isGreaterThanOrEqualTo(0);
    }

    private static HttpResponse<String> post(String path, String body, String requestId) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.baseUri() + path))
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (requestId != null) {
            request.header("x-request-id", requestId);
        }
        return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static List<String> events(String sse) {
        List<String> events = new ArrayList<>();
        Arrays.stream(sse.split("\n\n")).filter(e -> e.startsWith("data: ")).forEach(e -> events.add(e.substring(6)));
        return events;
    }
}
