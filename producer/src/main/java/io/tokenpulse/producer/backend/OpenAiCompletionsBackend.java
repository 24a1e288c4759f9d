package io.tokenpulse.producer.backend;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;

/**
 * OpenAI Completions ({@code /v1/completions}) as vLLM's {@code async_request_openai_completions}
 * speaks it; used by vllm, openai, sglang, lmdeploy, scalellm and llama.cpp.
 */
final class OpenAiCompletionsBackend extends OpenAiBackend {

    private final boolean disablePromptCache;

    /**
     * @param disablePromptCache send {@code cache_prompt: false} (llama.cpp's server caches the
     *     prompt otherwise)
     */
    OpenAiCompletionsBackend(String name, boolean disablePromptCache) {
        super(name, "completions", EventReader.TextField.TEXT);
        this.disablePromptCache = disablePromptCache;
    }

    @Override
    void writeInput(JsonGenerator json, BackendSettings settings, PromptRequest request) throws IOException {
        json.writeStringField("prompt", request.prompt());
        json.writeNumberField("temperature", settings.sampling().temperatureOrGreedy());
        json.writeNumberField("max_tokens", request.maxTokens());
        if (settings.sampling().logprobs() != null) {
            json.writeNumberField("logprobs", settings.sampling().logprobs());
        }
    }

    @Override
    void writeSampling(JsonGenerator json, BackendSettings.Sampling sampling) throws IOException {
        super.writeSampling(json, sampling);
        if (disablePromptCache) {
            json.writeBooleanField("cache_prompt", false);
        }
    }

    @Override
    boolean anyEventMarksLast() {
        return false;
    }
}
