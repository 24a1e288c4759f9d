package io.tokenpulse.producer.backend;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The registry of backends by {@code --backend} name, holding vLLM's list in vLLM's order, then
 * TokenPulse's own.
 * Adding a backend takes its class and one line here.
 */
public final class Backends {

    /** Every name vLLM's {@code --backend} accepts, in the order its help lists them, then TokenPulse's. */
    private static final List<String> NAMES = List.of(
            "tgi",
            "vllm",
            "lmdeploy",
            "deepspeed-mii",
            "openai",
            "openai-chat",
            "openai-audio",
            "tensorrt-llm",
            "scalellm",
            "sglang",
            "llama.cpp",
            // vLLM's pooling backends (POOLING_BACKENDS), after its generation ones; vllm-score is ours
            "openai-embeddings",
            "vllm-rerank",
            "vllm-score",
            // TokenPulse's: APIs newer than vLLM's benchmark clients
            OpenAiResponsesBackend.NAME,
            AnthropicMessagesBackend.NAME);

    private static final Map<String, Backend> BY_NAME = byName();

    private Backends() {}

    private static Map<String, Backend> byName() {
        Map<String, Backend> byName = new LinkedHashMap<>();
        for (String name : List.of("vllm", "lmdeploy", "openai", "scalellm", "sglang")) {
            byName.put(name, new OpenAiCompletionsBackend(name, false));
        }
        // vLLM turns llama.cpp's prompt cache off so repeated prompts are really prefilled.
        byName.put("llama.cpp", new OpenAiCompletionsBackend("llama.cpp", true));
        byName.put("openai-chat", new OpenAiChatBackend());
        byName.put("tgi", new TgiBackend());
        byName.put("tensorrt-llm", new TensorRtLlmBackend());
        byName.put("deepspeed-mii", new DeepSpeedMiiBackend());
        byName.put("openai-audio", new OpenAiAudioBackend());
        byName.put("openai-embeddings", new OpenAiEmbeddingsBackend());
        byName.put("vllm-rerank", new VllmRerankBackend());
        byName.put("vllm-score", new VllmScoreBackend());
        byName.put(OpenAiResponsesBackend.NAME, new OpenAiResponsesBackend());
        byName.put(AnthropicMessagesBackend.NAME, new AnthropicMessagesBackend());
        return Map.copyOf(byName);
    }

    /**
     * The backend registered under {@code name}.
     *
     * @throws IllegalArgumentException for an unknown name (the message lists the known names)
     */
    public static Backend get(String name) {
        Backend backend = BY_NAME.get(name);
        if (backend != null) {
            return backend;
        }
        throw new IllegalArgumentException(
                "unknown --backend " + name + "; known backends: " + String.join(", ", NAMES));
    }

    /**
     * The endpoint path {@code backend} posts to when {@code --endpoint} is not given: vLLM's
     * {@code /v1/completions} (its default for every backend), or the path of the API a newer
     * backend speaks.
     */
    public static String defaultEndpoint(String backend) {
        return switch (backend) {
            case OpenAiResponsesBackend.NAME -> "/v1/responses";
            case AnthropicMessagesBackend.NAME -> "/v1/messages";
            default -> "/v1/completions";
        };
    }

    /** Every backend name in vLLM's order (for the flag's help). */
    public static List<String> names() {
        return NAMES;
    }
}
