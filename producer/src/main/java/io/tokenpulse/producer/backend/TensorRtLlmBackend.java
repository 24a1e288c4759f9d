package io.tokenpulse.producer.backend;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;

/**
 * The TensorRT-LLM Triton ensemble's {@code /v2/models/<model>/generate_stream} as vLLM's
 * {@code async_request_trt_llm} speaks it: {@code {"accumulate_tokens": true, "text_input",
 * "temperature": 0.0, "top_p": 1.0, "max_tokens", "stream": true}} plus {@code "min_length"} = the
 * output length with {@code --ignore-eos}; no Authorization header. Every SSE event is a timing
 * event and its {@code text_output} is appended; output tokens are the tokenizer's count of the text.
 */
final class TensorRtLlmBackend extends GenerateStreamBackend {

    TensorRtLlmBackend() {
        super("tensorrt-llm", new TritonEventReader());
    }

    @Override
    void writeFields(JsonGenerator json, BackendSettings.Sampling sampling, PromptRequest request) throws IOException {
        json.writeBooleanField("accumulate_tokens", true);
        json.writeStringField("text_input", request.prompt());
        json.writeNumberField("temperature", 0.0);
        json.writeNumberField("top_p", 1.0);
        json.writeNumberField("max_tokens", request.maxTokens());
        json.writeBooleanField("stream", true);
        if (sampling.ignoreEos()) {
            json.writeNumberField("min_length", request.maxTokens());
        }
    }
}
