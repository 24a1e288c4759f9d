package io.tokenpulse.producer.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tokenpulse.producer.backend.BackendSettings.Sampling;
import io.tokenpulse.tokenizers.ChatMessage;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the openai-responses and anthropic-messages backends send, and the settings they refuse. */
class NewerApiRequestsTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final URI RESPONSES = URI.create("http://127.0.0.1:8000/v1/responses");
    private static final URI MESSAGES = URI.create("http://127.0.0.1:8000/v1/messages");
    private static final PromptRequest PROMPT = new PromptRequest("bench-7", "Say \"hi\" in 日本語", 128);

    private static BackendSettings settings(URI endpoint, String apiKey, Map<String, String> headers, Sampling s) {
        return new BackendSettings(endpoint, "facebook/opt-6.7b", apiKey, headers, s);
    }

    @Test
    void responsesBodyNamesTheInputAndMaxOutputTokens() throws Exception {
        HttpCall call = Backends.get("openai-responses")
                .buildRequest(settings(RESPONSES, "sk-secret", Map.of(), Sampling.GREEDY), PROMPT);
        assertThat(MAPPER.readTree(call.body())).isEqualTo(MAPPER.readTree("""
                {"model": "facebook/opt-6.7b", "input": "Say \\"hi\\" in 日本語", "temperature": 0.0,
                 "max_output_tokens": 128, "stream": true}"""));
        assertThat(call.header("Authorization")).isEqualTo("Bearer sk-secret");
        assertThat(call.header("x-request-id")).isEqualTo("bench-7");
    }

    @Test
    void responsesTakesTopPAndExtraBody() throws Exception {
        ObjectNode extra =
                (ObjectNode) MAPPER.readTree("{\"reasoning\": {\"effort\": \"low\"}, \"max_output_tokens\": 5}");
        Sampling sampling = new Sampling(0.7, 0.9, null, null, null, false, null, null, null, extra);
        HttpCall call =
                Backends.get("openai-responses").buildRequest(settings(RESPONSES, null, Map.of(), sampling), PROMPT);
        var body = MAPPER.readTree(call.body());
        assertThat(body.get("temperature").asDouble()).isEqualTo(0.7);
        assertThat(body.get("top_p").asDouble()).isEqualTo(0.9);
        assertThat(body.get("max_output_tokens").asInt()).isEqualTo(5);
        assertThat(body.at("/reasoning/effort").asText()).isEqualTo("low");
        assertThat(call.header("Authorization")).isNull();
    }

    @Test
    void messagesBodyIsOneUserMessageWithMaxTokens() throws Exception {
        Sampling sampling = new Sampling(null, 0.9, 40, null, null, false);
        HttpCall call =
                Backends.get("anthropic-messages").buildRequest(settings(MESSAGES, null, Map.of(), sampling), PROMPT);
        assertThat(MAPPER.readTree(call.body())).isEqualTo(MAPPER.readTree("""
                {"model": "facebook/opt-6.7b", "max_tokens": 128,
                 "messages": [{"role": "user", "content": "Say \\"hi\\" in 日本語"}],
                 "temperature": 0.0, "stream": true, "top_p": 0.9, "top_k": 40}"""));
        assertThat(call.header("anthropic-version")).isEqualTo("2023-06-01");
        assertThat(call.header("x-api-key")).isNull();
    }

    /** A session's third turn: system prompt, two questions with their answers, the new question. */
    private static final PromptRequest TURN = new PromptRequest(
            "bench-9",
            "ignored",
            64,
            List.of(),
            null,
            null,
            List.of(
                    new ChatMessage("system", "Be brief."),
                    new ChatMessage("user", "Hi"),
                    new ChatMessage("assistant", "Hello!"),
                    new ChatMessage("user", "Why?"),
                    new ChatMessage("assistant", "Because."),
                    new ChatMessage("user", "Go on")),
            List.of());

    /**
     * OpenAI's Responses API takes the conversation so far as input messages with roles
     * (platform.openai.com/docs/guides/conversation-state, "Manually manage conversation state", and
     * the API reference's input item list, read 2026-11-28); vLLM serves that stateless form.
     */
    @Test
    void responsesSendsASessionsTurnAsInputMessagesWithRoles() throws Exception {
        HttpCall call = Backends.get("openai-responses")
                .buildRequest(settings(RESPONSES, null, Map.of(), Sampling.GREEDY), TURN);
        assertThat(MAPPER.readTree(call.body())).isEqualTo(MAPPER.readTree("""
                {"model": "facebook/opt-6.7b",
                 "input": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"},
                           {"role": "assistant", "content": "Hello!"}, {"role": "user", "content": "Why?"},
                           {"role": "assistant", "content": "Because."}, {"role": "user", "content": "Go on"}],
                 "temperature": 0.0, "max_output_tokens": 64, "stream": true}"""));
    }

    /**
     * Anthropic's Messages API has no system role: the system prompt goes in the top-level
     * {@code system} field, the turns alternate user and assistant in {@code messages}
     * (docs.anthropic.com/en/api/messages, "messages" and "system", read 2026-11-28).
     */
    @Test
    void messagesSendsASessionsTurnWithItsSystemPromptOnTop() throws Exception {
        HttpCall call = Backends.get("anthropic-messages")
                .buildRequest(settings(MESSAGES, null, Map.of(), Sampling.GREEDY), TURN);
        assertThat(MAPPER.readTree(call.body())).isEqualTo(MAPPER.readTree("""
                {"model": "facebook/opt-6.7b", "max_tokens": 64, "system": "Be brief.",
                 "messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello!"},
                              {"role": "user", "content": "Why?"}, {"role": "assistant", "content": "Because."},
                              {"role": "user", "content": "Go on"}],
                 "temperature": 0.0, "stream": true}"""));
    }

    @Test
    void messagesSendsTheKeyAsXApiKeyNeverAsBearerAndNeverInToString() {
        HttpCall call = Backends.get("anthropic-messages")
                .buildRequest(settings(MESSAGES, "sk-ant-secret", Map.of(), Sampling.GREEDY), PROMPT);
        assertThat(call.header("x-api-key")).isEqualTo("sk-ant-secret");
        assertThat(call.header("Authorization")).isNull();
        assertThat(call.toString()).doesNotContain("sk-ant-secret").contains("x-api-key: ***");
    }

    @Test
    void aHeaderFlagReplacesTheApiVersion() {
        HttpCall call = Backends.get("anthropic-messages")
                .buildRequest(
                        settings(MESSAGES, null, Map.of("Anthropic-Version", "2024-01-01"), Sampling.GREEDY), PROMPT);
        assertThat(call.headers())
                .filteredOn(h -> h.name().equalsIgnoreCase("anthropic-version"))
                .singleElement()
                .extracting(HttpCall.Header::value)
                .isEqualTo("2024-01-01");
    }

    @Test
    void imagesGoAsEachApisImageParts() throws Exception {
        PromptRequest withImages = new PromptRequest(
                "bench-8", "What is this?", 16, List.of("data:image/png;base64,iVBORw0KGgo=", "https://x.test/a.jpg"));
        HttpCall responses = Backends.get("openai-responses")
                .buildRequest(settings(RESPONSES, null, Map.of(), Sampling.GREEDY), withImages);
        assertThat(MAPPER.readTree(responses.body()).get("input")).isEqualTo(MAPPER.readTree("""
                [{"role": "user", "content": [{"type": "input_text", "text": "What is this?"},
                  {"type": "input_image", "image_url": "data:image/png;base64,iVBORw0KGgo="},
                  {"type": "input_image", "image_url": "https://x.test/a.jpg"}]}]"""));
        HttpCall messages = Backends.get("anthropic-messages")
                .buildRequest(settings(MESSAGES, null, Map.of(), Sampling.GREEDY), withImages);
        assertThat(MAPPER.readTree(messages.body()).at("/messages/0/content")).isEqualTo(MAPPER.readTree("""
                [{"type": "text", "text": "What is this?"},
                 {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}},
                 {"type": "image", "source": {"type": "url", "url": "https://x.test/a.jpg"}}]"""));
    }

    @Test
    void aWrongEndpointIsOneLineNamingTheFlag() {
        BackendSettings chat =
                settings(URI.create("http://127.0.0.1:8000/v1/chat/completions"), null, Map.of(), Sampling.GREEDY);
        assertThatThrownBy(() -> Backends.get("anthropic-messages").check(chat))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("backend anthropic-messages needs an endpoint path ending in 'messages', got "
                        + "'/v1/chat/completions'; change --endpoint");
        assertThatThrownBy(() -> Backends.get("openai-responses").check(chat))
                .hasMessage("backend openai-responses needs an endpoint path ending in 'responses', got "
                        + "'/v1/chat/completions'; change --endpoint");
    }

    @Test
    void samplingFlagsTheApiHasNoFieldForAreRefused() {
        Sampling vllmOnly = new Sampling(null, null, 20, 0.1, null, true);
        assertThatThrownBy(() -> Backends.get("openai-responses").check(settings(RESPONSES, null, Map.of(), vllmOnly)))
                .hasMessage("backend openai-responses has no request field for these flags (--extra-body sets fields"
                        + " a server takes beyond the API); remove --top-k --min-p --ignore-eos");
        assertThatThrownBy(() -> Backends.get("anthropic-messages").check(settings(MESSAGES, null, Map.of(), vllmOnly)))
                .hasMessageStartingWith("backend anthropic-messages has no request field for these flags")
                .hasMessageEndingWith("; remove --min-p --ignore-eos");
    }
}
