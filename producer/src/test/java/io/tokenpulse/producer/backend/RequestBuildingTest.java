package io.tokenpulse.producer.backend;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tokenpulse.producer.backend.BackendSettings.Sampling;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class RequestBuildingTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final URI COMPLETIONS = URI.create("http://127.0.0.1:8000/v1/completions");
    private static final URI CHAT = URI.create("http://127.0.0.1:8000/v1/chat/completions");
    private static final PromptRequest PROMPT = new PromptRequest("bench-7", "Say \"hi\" in 日本語", 128);

    private static BackendSettings settings(URI endpoint, Sampling sampling) {
        return new BackendSettings(endpoint, "facebook/opt-6.7b", null, Map.of(), sampling);
    }

    private static void assertBody(HttpCall call, String expectedJson) throws Exception {
        // Compare as trees: key order is not part of the API, values and types are.
        assertThat(MAPPER.readTree(call.body())).isEqualTo(MAPPER.readTree(expectedJson));
    }

    @ParameterizedTest
    @ValueSource(strings = {"vllm", "openai", "sglang", "lmdeploy", "scalellm"})
    void completionsPayloadIsVllmsWithGreedyDefault(String name) throws Exception {
        HttpCall call = Backends.get(name).buildRequest(settings(COMPLETIONS, Sampling.GREEDY), PROMPT);
        assertBody(call, """
                {"model": "facebook/opt-6.7b", "prompt": "Say \\"hi\\" in 日本語", "temperature": 0.0,
                 "max_tokens": 128, "stream": true, "stream_options": {"include_usage": true}}""");
        assertThat(call.uri()).isEqualTo(COMPLETIONS);
    }

    @Test
    void completionsPayloadCarriesSamplingFlagsWhenGiven() throws Exception {
        Sampling sampling = new Sampling(0.7, 0.9, 50, 0.05, 5, true);
        HttpCall call = Backends.get("vllm").buildRequest(settings(COMPLETIONS, sampling), PROMPT);
        assertBody(call, """
                {"model": "facebook/opt-6.7b", "prompt": "Say \\"hi\\" in 日本語", "temperature": 0.7,
                 "max_tokens": 128, "logprobs": 5, "stream": true, "stream_options": {"include_usage": true},
                 "ignore_eos": true, "top_p": 0.9, "top_k": 50, "min_p": 0.05}""");
    }

    @Test
    void penaltiesGoIntoTheBodyAsVllmsSamplingParameters() throws Exception {
        Sampling sampling = new Sampling(null, null, null, null, null, false, 0.5, -0.25, 1.1, null);
        HttpCall call = Backends.get("openai-chat").buildRequest(settings(CHAT, sampling), PROMPT);
        var body = MAPPER.readTree(call.body());
        assertThat(body.get("frequency_penalty").asDouble()).isEqualTo(0.5);
        assertThat(body.get("presence_penalty").asDouble()).isEqualTo(-0.25);
        assertThat(body.get("repetition_penalty").asDouble()).isEqualTo(1.1);
    }

    @Test
    void extraBodyIsMergedLastAndReplacesThePayloadsOwnKeys() throws Exception {
        var extra = (com.fasterxml.jackson.databind.node.ObjectNode) MAPPER.readTree(
                "{\"chat_template_kwargs\": {\"enable_thinking\": false}, \"max_tokens\": 3, \"top_p\": 0.5}");
        Sampling sampling = new Sampling(null, 0.9, null, null, null, false, null, null, null, extra);
        HttpCall call = Backends.get("vllm").buildRequest(settings(COMPLETIONS, sampling), PROMPT);
        assertBody(call, """
                {"model": "facebook/opt-6.7b", "prompt": "Say \\"hi\\" in 日本語", "temperature": 0.0,
                 "max_tokens": 3, "stream": true, "stream_options": {"include_usage": true},
                 "top_p": 0.5, "chat_template_kwargs": {"enable_thinking": false}}""");
        extra.put("max_tokens", 99);
        assertThat(MAPPER.readTree(Backends.get("vllm")
                                .buildRequest(settings(COMPLETIONS, sampling), PROMPT)
                                .body())
                        .get("max_tokens")
                        .asInt())
                .as("the settings keep their own copy")
                .isEqualTo(3);
    }

    @Test
    void aRequestsOwnModelReplacesTheRunsAsALoraAdapterDoes() throws Exception {
        HttpCall call = Backends.get("openai-chat").buildRequest(settings(CHAT, null), PROMPT.withModel("sql-lora"));
        assertThat(MAPPER.readTree(call.body()).get("model").asText()).isEqualTo("sql-lora");
        HttpCall run = Backends.get("openai-chat").buildRequest(settings(CHAT, null), PROMPT);
        assertThat(MAPPER.readTree(run.body()).get("model").asText()).isEqualTo("facebook/opt-6.7b");
    }

    @Test
    void llamaCppTurnsThePromptCacheOff() throws Exception {
        HttpCall call = Backends.get("llama.cpp").buildRequest(settings(COMPLETIONS, Sampling.GREEDY), PROMPT);
        assertBody(call, """
                {"model": "facebook/opt-6.7b", "prompt": "Say \\"hi\\" in 日本語", "temperature": 0.0,
                 "max_tokens": 128, "stream": true, "stream_options": {"include_usage": true},
                 "cache_prompt": false}""");
    }

    @Test
    void chatPayloadSendsThePromptAsOneUserTextMessage() throws Exception {
        Sampling sampling = new Sampling(null, 0.95, null, null, null, true);
        HttpCall call = Backends.get("openai-chat").buildRequest(settings(CHAT, sampling), PROMPT);
        assertBody(call, """
                {"model": "facebook/opt-6.7b",
                 "messages": [{"role": "user", "content": [{"type": "text", "text": "Say \\"hi\\" in 日本語"}]}],
                 "temperature": 0.0, "max_completion_tokens": 128, "stream": true,
                 "stream_options": {"include_usage": true}, "ignore_eos": true, "top_p": 0.95}""");
    }

    @Test
    void chatSendsADatasetsImagesAsImageUrlPartsAfterTheText() throws Exception {
        PromptRequest withImage = new PromptRequest(
                "bench-8",
                "What is in this picture?",
                64,
                List.of("data:image/png;base64,iVBORw0KGgo=", "https://example.com/cat.jpg"));

        HttpCall call = Backends.get("openai-chat").buildRequest(settings(CHAT, null), withImage);

        assertThat(MAPPER.readTree(call.body()).get("messages")).isEqualTo(MAPPER.readTree("""
                [{"role": "user", "content": [
                  {"type": "text", "text": "What is in this picture?"},
                  {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
                  {"type": "image_url", "image_url": {"url": "https://example.com/cat.jpg"}}]}]"""));
    }

    @Test
    void bodyIsUtf8() {
        HttpCall call = Backends.get("vllm").buildRequest(settings(COMPLETIONS, Sampling.GREEDY), PROMPT);
        assertThat(new String(call.body(), UTF_8)).contains("日本語");
    }

    @Test
    void headersCarryBearerKeyExtraHeadersAndRequestId() {
        Map<String, String> extra = new LinkedHashMap<>();
        extra.put("X-Tenant", "bench");
        extra.put("content-type", "application/json; charset=utf-8");
        BackendSettings withKey = new BackendSettings(COMPLETIONS, "m", "sk-secret", extra, null);
        HttpCall call = Backends.get("vllm").buildRequest(withKey, PROMPT);

        assertThat(call.headers())
                .extracting(HttpCall.Header::name)
                .containsExactly("content-type", "Authorization", "X-Tenant", "x-request-id");
        assertThat(call.header("authorization")).isEqualTo("Bearer sk-secret");
        assertThat(call.header("Content-Type")).isEqualTo("application/json; charset=utf-8");
        assertThat(call.header("x-request-id")).isEqualTo("bench-7");
    }

    @Test
    void noApiKeySendsNoAuthorizationHeader() {
        HttpCall call = Backends.get("openai-chat").buildRequest(settings(CHAT, null), PROMPT);
        assertThat(call.header("Authorization")).isNull();
        assertThat(call.header("Content-Type")).isEqualTo("application/json");
    }

    @Test
    void apiKeyNeverAppearsInToString() {
        BackendSettings withKey = new BackendSettings(COMPLETIONS, "m", "sk-secret", Map.of(), null);
        HttpCall call = Backends.get("vllm").buildRequest(withKey, PROMPT);
        assertThat(call.toString()).doesNotContain("sk-secret").contains("Authorization: ***");
        assertThat(withKey.toString()).doesNotContain("sk-secret").contains("apiKey=***");
    }

    @ParameterizedTest(name = "{0} at {1} -> {2}")
    @CsvSource({
        "vllm,        /v1/completions,         ok",
        "vllm,        /v1/chat/completions,    ok", // vLLM's suffix check lets this through too
        "vllm,        /start_profile,          ok",
        "vllm,        /generate,               'backend vllm needs an endpoint path ending in ''completions'' or ''profile'', got ''/generate''; change --endpoint'",
        "llama.cpp,   /completion,             'backend llama.cpp needs an endpoint path ending in ''completions'' or ''profile'', got ''/completion''; change --endpoint'",
        "openai-chat, /v1/chat/completions,    ok",
        "openai-chat, /v1/completions,         'backend openai-chat needs an endpoint path ending in ''chat/completions'' or ''profile'', got ''/v1/completions''; change --endpoint'",
    })
    void endpointPathIsCheckedAsVllmDoes(String name, String path, String expected) {
        BackendSettings s = settings(URI.create("http://127.0.0.1:8000" + path + "?trace=1"), null);
        Backend backend = Backends.get(name);
        if (expected.equals("ok")) {
            backend.check(s);
            assertThat(backend.buildRequest(s, PROMPT).body()).isNotEmpty();
        } else {
            assertThatThrownBy(() -> backend.check(s)).hasMessage(expected);
            assertThatThrownBy(() -> backend.buildRequest(s, PROMPT)).hasMessage(expected);
        }
    }

    @Test
    void chatRejectsLogprobs() {
        Sampling sampling = new Sampling(null, null, null, null, 3, false);
        assertThatThrownBy(() -> Backends.get("openai-chat").check(settings(CHAT, sampling)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--logprobs is not supported by backend openai-chat; remove --logprobs");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "negative temperature | -0.1 |      |     |      |    | --temperature must be >= 0",
                "top-p zero           |      | 0    |     |      |    | --top-p must be in (0, 1]",
                "top-k below -1       |      |      | -2  |      |    | --top-k must be -1 (off) or >= 0",
                "min-p above 1        |      |      |     | 1.5  |    | --min-p must be in [0, 1]",
                "negative logprobs    |      |      |     |      | -1 | --logprobs must be >= 0",
            })
    void badSamplingFlagsFailNamingTheFlag(
            String why, Double temperature, Double topP, Integer topK, Double minP, Integer logprobs, String message) {
        assertThatThrownBy(() -> new Sampling(temperature, topP, topK, minP, logprobs, false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(message);
    }

    @Test
    void relativeEndpointIsRejected() {
        assertThatThrownBy(() -> new BackendSettings(URI.create("/v1/completions"), "m", null, null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--base-url");
    }
}
