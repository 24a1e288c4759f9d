package io.tokenpulse.producer.backend;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tokenpulse.producer.backend.BackendSettings.Sampling;
import io.tokenpulse.producer.dataset.Prompt;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The pooling backends' requests (vLLM's {@code async_request_openai_embeddings} and
 * {@code async_request_vllm_rerank}, and our score one) and how their one JSON answer ends a request.
 */
class PoolingBackendsTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final PromptRequest PROMPT = new PromptRequest("bench-3", "alpha beta gamma delta", 1);

    private static BackendSettings settings(String path, Sampling sampling) {
        return new BackendSettings(
                URI.create("http://127.0.0.1:8000" + path), "BAAI/bge-m3", "sk-1", Map.of(), sampling);
    }

    private static void assertBody(HttpCall call, String expectedJson) throws Exception {
        assertThat(MAPPER.readTree(call.body())).isEqualTo(MAPPER.readTree(expectedJson));
    }

    @Test
    void embeddingsSendTheWholePromptAsInputWithVllmsTruncation() throws Exception {
        HttpCall call = Backends.get("openai-embeddings").buildRequest(settings("/v1/embeddings", null), PROMPT);
        assertBody(call, """
                {"model": "BAAI/bge-m3", "input": "alpha beta gamma delta", "truncate_prompt_tokens": -1}""");
        assertThat(call.header("Authorization")).isEqualTo("Bearer sk-1");
        assertThat(call.header("x-request-id")).isEqualTo("bench-3");
        assertThat(call.header("Content-Type")).isEqualTo("application/json");
    }

    @ParameterizedTest
    @CsvSource({"/rerank", "/v1/rerank"})
    void rerankSendsTheFirstHalfAsQueryAndTheSecondAsTheOneDocument(String path) throws Exception {
        HttpCall call = Backends.get("vllm-rerank").buildRequest(settings(path, null), PROMPT);
        assertBody(call, """
                {"model": "BAAI/bge-m3", "query": "alpha beta", "documents": ["gamma delta"],
                 "truncate_prompt_tokens": -1}""");
    }

    @ParameterizedTest
    @CsvSource({"/score", "/v1/score"})
    void scoreSendsThePromptsHalvesAsTextOneAndTwo(String path) throws Exception {
        HttpCall call = Backends.get("vllm-score").buildRequest(settings(path, null), PROMPT);
        assertBody(call, """
                {"model": "BAAI/bge-m3", "text_1": "alpha beta", "text_2": "gamma delta",
                 "truncate_prompt_tokens": -1}""");
    }

    /** A random-rerank request: the query, then two documents. */
    private static final PromptRequest LIST =
            PromptRequest.of("bench-4", new Prompt.Texts(List.of("the query", "document one", "document two")), 1);

    @Test
    void rerankSendsAListPromptsFirstTextAsQueryAndTheOthersAsDocumentsAsVllm() throws Exception {
        HttpCall call = Backends.get("vllm-rerank").buildRequest(settings("/v1/rerank", null), LIST);
        assertBody(call, """
                {"model": "BAAI/bge-m3", "query": "the query", "documents": ["document one", "document two"],
                 "truncate_prompt_tokens": -1}""");
        assertThat(call.header("x-request-id")).isEqualTo("bench-4");
    }

    @Test
    void embeddingsSendAListPromptAsTheListOfInputsAsVllm() throws Exception {
        HttpCall call = Backends.get("openai-embeddings").buildRequest(settings("/v1/embeddings", null), LIST);
        assertBody(call, """
                {"model": "BAAI/bge-m3", "input": ["the query", "document one", "document two"],
                 "truncate_prompt_tokens": -1}""");
    }

    @Test
    void scoreSendsAListPromptsQueryAsTextOneAndItsDocumentsAsTextTwo() throws Exception {
        HttpCall call = Backends.get("vllm-score").buildRequest(settings("/v1/score", null), LIST);
        assertBody(call, """
                {"model": "BAAI/bge-m3", "text_1": "the query", "text_2": ["document one", "document two"],
                 "truncate_prompt_tokens": -1}""");
    }

    @Test
    void extraBodyIsMergedLastAsVllmsPayloadUpdate() throws Exception {
        ObjectNode extra =
                MAPPER.createObjectNode().put("truncate_prompt_tokens", 512).put("dimensions", 64);
        Sampling sampling = new Sampling(null, null, null, null, null, false, null, null, null, extra);
        HttpCall call = Backends.get("openai-embeddings").buildRequest(settings("/v1/embeddings", sampling), PROMPT);
        assertBody(call, """
                {"model": "BAAI/bge-m3", "input": "alpha beta gamma delta", "truncate_prompt_tokens": 512,
                 "dimensions": 64}""");
    }

    @ParameterizedTest
    @CsvSource({
        "openai-embeddings, /v1/completions, /v1/embeddings",
        "vllm-rerank,       /v1/embeddings,  /v1/rerank",
        "vllm-score,        /v1/chat/completions, /v1/score",
    })
    void anEndpointOfAnotherFamilyIsOneLineNamingTheFlag(String backend, String path, String suggested) {
        assertThatThrownBy(() -> Backends.get(backend).check(settings(path, null)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("backend " + backend)
                .hasMessageContaining("got '" + path + "'")
                .hasMessageEndingWith("change --endpoint, e.g. --endpoint " + suggested)
                .hasMessageNotContaining("\n");
    }

    @Test
    void theProfilerEndpointPassesTheCheckAsInVllm() {
        Backends.get("vllm-rerank").check(settings("/start_profile", null));
    }

    @Test
    void generationFlagsAreRefusedNotDropped() {
        Sampling sampling = new Sampling(0.5, null, 5, null, null, true);
        assertThatThrownBy(() -> Backends.get("vllm-score").check(settings("/score", sampling)))
                .hasMessage("backend vllm-score asks a pooling model for one answer and generates no tokens;"
                        + " remove --temperature --top-k --ignore-eos");
    }

    @Test
    void anEmbeddingsAnswerSucceedsWithNoChunkAndItsPromptTokens() {
        ResponseTracker tracker = Backends.get("openai-embeddings").newResponse();
        assertThat(tracker.streamed()).isFalse();
        byte[] body = """
                {"id":"embd-1","object":"list","created":1,"model":"m",
                 "data":[{"index":0,"object":"embedding","embedding":[0.1,-0.2]}],
                 "usage":{"prompt_tokens":7,"total_tokens":7}}""".getBytes(UTF_8);

        assertThat(tracker.onEvent(body, 0, body.length, 1_000L).isChunk()).isFalse();
        RequestOutcome outcome = tracker.finish(200, false);

        assertThat(outcome.success()).isTrue();
        assertThat(outcome.chunkEvents()).isZero();
        assertThat(outcome.firstNs()).isEqualTo(1_000L);
        assertThat(outcome.lastNs()).isEqualTo(1_000L);
        assertThat(outcome.usage().promptTokens()).isEqualTo(7);
        assertThat(outcome.reportedOutputTokens()).isNull();
        assertThat(outcome.generatedText()).isEmpty();
    }

    @Test
    void aRerankAnswerGivesItsTotalTokensAsInputTokens() {
        ResponseTracker tracker = Backends.get("vllm-rerank").newResponse();
        byte[] body = """
                {"id":"rerank-1","model":"m","usage":{"total_tokens":12},
                 "results":[{"index":0,"document":{"text":"d"},"relevance_score":0.9}]}""".getBytes(UTF_8);
        tracker.onEvent(body, 0, body.length, 5L);

        RequestOutcome outcome = tracker.finish(200, false);

        assertThat(outcome.success()).isTrue();
        assertThat(outcome.usage().promptTokens()).isEqualTo(12);
    }

    @Test
    void anAnswerWithoutUsageLeavesTheInputTokensToTheDatasetsCount() {
        ResponseTracker tracker = Backends.get("vllm-score").newResponse();
        byte[] body =
                "{\"id\":\"score-1\",\"object\":\"list\",\"data\":[{\"index\":0,\"object\":\"score\",\"score\":0.5}]}"
                        .getBytes(UTF_8);
        tracker.onEvent(body, 0, body.length, 5L);

        RequestOutcome outcome = tracker.finish(200, false);

        assertThat(outcome.success()).isTrue();
        assertThat(outcome.usage()).isNull();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "openai-embeddings | {\"error\":{\"message\":\"too long\"}} | server error: too long",
                "vllm-rerank       | {\"data\":[]}                         | malformed event: the answer has no 'results' array",
                "vllm-score        | not json                               | malformed event: the response body is not JSON",
            })
    void anErrorOrAWrongShapeFailsTheRequestWithItsReason(String backend, String body, String reason) {
        ResponseTracker tracker = Backends.get(backend).newResponse();
        byte[] bytes = body.getBytes(UTF_8);
        tracker.onEvent(bytes, 0, bytes.length, 5L);

        RequestOutcome outcome = tracker.finish(200, false);

        assertThat(outcome.success()).isFalse();
        assertThat(outcome.error()).startsWith(reason);
        assertThat(outcome.firstNs()).isNull();
    }

    @Test
    void anHttpErrorFailsWithItsStatus() {
        RequestOutcome outcome = Backends.get("openai-embeddings").newResponse().finish(500, false);
        assertThat(outcome.success()).isFalse();
        assertThat(outcome.error()).isEqualTo("HTTP 500");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "alpha beta gamma delta | alpha beta      | gamma delta",
                "one two three          | one two         | three",
                "abcdef                 | abc             | def",
                "x                      | x               | x",
            })
    void aPairIsThePromptCutAtTheSpaceNearestItsMiddle(String prompt, String first, String second) {
        assertThat(TextPair.of(prompt)).isEqualTo(new TextPair(first, second));
    }

    @Test
    void theRegistryListsThePoolingBackendsAfterVllmsGenerationOnes() {
        assertThat(Backends.names())
                .containsSubsequence("llama.cpp", "openai-embeddings", "vllm-rerank", "vllm-score")
                .endsWith("vllm-score", "openai-responses", "anthropic-messages");
    }
}
