package io.tokenpulse.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The pooling endpoints as a client sees them on the wire. The shapes are those of vLLM's
 * OpenAI-compatible server, "Pooling API" section of its docs
 * (https://docs.vllm.ai/en/latest/serving/openai_compatible_server.html: Embeddings API, Score API,
 * Re-rank API), read 2026-11-27: embeddings {@code {id, object:"list", created, model, data:[{index,
 * object:"embedding", embedding}], usage:{prompt_tokens, total_tokens}}}; rerank {@code {id, model,
 * usage:{total_tokens}, results:[{index, document:{text}, relevance_score}]}}; score {@code {id,
 * object:"list", created, model, data:[{index, object:"score", score}], usage:{prompt_tokens,
 * total_tokens}}}. Without a tokenizer the simulator counts words.
 */
class SimulatorPoolingIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final Duration TTFT = Duration.ofMillis(40);
    private static SimulatorServer server;

    @BeforeAll
    static void start() throws InterruptedException {
        server = SimulatorServer.start(SimulatorConfig.deterministic(TTFT, Duration.ofMillis(2))
                .withServedModelNames(List.of("m"))
                .withMaxModelLen(100));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void embeddingsAnswerOneVectorPerInputWithPromptTokensInUsage() throws Exception {
        long startNs = System.nanoTime();
        HttpResponse<String> response =
                post("/v1/embeddings", "{\"model\":\"m\",\"input\":[\"a b c\",\"d e\"],\"truncate_prompt_tokens\":-1}");
        long elapsedMs = (System.nanoTime() - startNs) / 1_000_000;

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
        JsonNode body = JSON.readTree(response.body());
        assertThat(fieldNames(body)).containsExactly("id", "object", "created", "model", "data", "usage");
        assertThat(body.get("object").asText()).isEqualTo("list");
        assertThat(body.get("model").asText()).isEqualTo("m");
        assertThat(body.get("data")).hasSize(2);
        JsonNode first = body.get("data").get(0);
        assertThat(fieldNames(first)).containsExactly("index", "object", "embedding");
        assertThat(first.get("object").asText()).isEqualTo("embedding");
        assertThat(body.get("data").get(1).get("index").asInt()).isEqualTo(1);
        assertThat(first.get("embedding"))
                .hasSize(16)
                .allSatisfy(v -> assertThat(v.isNumber()).isTrue());
        assertThat(fieldNames(body.get("usage"))).containsExactly("prompt_tokens", "total_tokens");
        assertThat(body.at("/usage/prompt_tokens").asInt()).isEqualTo(5);
        assertThat(body.at("/usage/total_tokens").asInt()).isEqualTo(5);
        // the engine's prefill: the answer comes when the first token would (the deterministic TTFT)
        assertThat(elapsedMs).isGreaterThanOrEqualTo(TTFT.toMillis());
    }

    @ParameterizedTest
    @ValueSource(strings = {"/rerank", "/v1/rerank"})
    void rerankAnswersTheDocumentsByFallingRelevanceWithTotalTokensOnly(String path) throws Exception {
        HttpResponse<String> response =
                post(path, "{\"model\":\"m\",\"query\":\"q r\",\"documents\":[\"x\",\"y z\",\"w\"],\"top_n\":2}");

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode body = JSON.readTree(response.body());
        assertThat(fieldNames(body)).containsExactly("id", "model", "usage", "results");
        assertThat(body.get("id").asText()).startsWith("rerank-");
        assertThat(fieldNames(body.get("usage"))).containsExactly("total_tokens");
        // three pairs: (q r, x), (q r, y z), (q r, w)
        assertThat(body.at("/usage/total_tokens").asInt()).isEqualTo(10);
        JsonNode results = body.get("results");
        assertThat(results).hasSize(2);
        assertThat(fieldNames(results.get(0))).containsExactly("index", "document", "relevance_score");
        assertThat(results.get(0).get("relevance_score").asDouble())
                .isGreaterThanOrEqualTo(results.get(1).get("relevance_score").asDouble())
                .isBetween(0.0, 1.0);
        int index = results.get(0).get("index").asInt();
        assertThat(results.get(0).at("/document/text").asText())
                .isEqualTo(List.of("x", "y z", "w").get(index));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/score", "/v1/score"})
    void scoreAnswersOneScorePerPair(String path) throws Exception {
        HttpResponse<String> response = post(path, "{\"model\":\"m\",\"text_1\":\"a b\",\"text_2\":[\"c\",\"d e f\"]}");

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode body = JSON.readTree(response.body());
        assertThat(fieldNames(body)).containsExactly("id", "object", "created", "model", "data", "usage");
        assertThat(body.get("object").asText()).isEqualTo("list");
        assertThat(body.get("data")).hasSize(2);
        assertThat(fieldNames(body.get("data").get(0))).containsExactly("index", "object", "score");
        assertThat(body.get("data").get(0).get("object").asText()).isEqualTo("score");
        assertThat(body.get("data").get(1).get("score").asDouble()).isBetween(0.0, 1.0);
        assertThat(body.at("/usage/prompt_tokens").asInt()).isEqualTo(8);
        assertThat(body.at("/usage/total_tokens").asInt()).isEqualTo(8);
    }

    @Test
    void aSameRequestGetsTheSameAnswer() throws Exception {
        String request = "{\"model\":\"m\",\"text_1\":\"a b\",\"text_2\":\"c d\"}";
        assertThat(JSON.readTree(post("/score", request).body()).at("/data/0/score"))
                .isEqualTo(JSON.readTree(post("/score", request).body()).at("/data/0/score"));
    }

    @Test
    void anInputBeyondTheContextIsRefusedWithoutTruncationAndShortenedWithIt() throws Exception {
        String words = "w ".repeat(150);
        HttpResponse<String> refused = post("/v1/embeddings", "{\"model\":\"m\",\"input\":\"" + words + "\"}");
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(refused.body()).at("/error/message").asText())
                .startsWith("This model's maximum context length is 100 tokens.");

        HttpResponse<String> truncated =
                post("/v1/embeddings", "{\"model\":\"m\",\"input\":\"" + words + "\",\"truncate_prompt_tokens\":-1}");
        assertThat(truncated.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(truncated.body()).at("/usage/prompt_tokens").asInt())
                .isEqualTo(100);
    }

    @Test
    void aMissingFieldIsABadRequestAndAnUnknownModelNotFound() throws Exception {
        HttpResponse<String> missing = post("/rerank", "{\"model\":\"m\",\"documents\":[\"x\"]}");
        assertThat(missing.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(missing.body()).at("/error/message").asText()).isEqualTo("'query' must be a string");

        HttpResponse<String> unknown = post("/v1/embeddings", "{\"model\":\"other\",\"input\":\"x\"}");
        assertThat(unknown.statusCode()).isEqualTo(404);
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static HttpResponse<String> post(String path, String body) throws Exception {
        return CLIENT.send(
                HttpRequest.newBuilder(server.baseUri().resolve(path))
                        .header("content-type", "application/json")
                        .header("x-request-id", "req-1")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
