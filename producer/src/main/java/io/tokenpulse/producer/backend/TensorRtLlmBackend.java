package io.tokenpulse.producer.backend;

/**
 * The TensorRT-LLM Triton ensemble's {@code /v2/models/<model>/generate_stream} as vLLM's
 * {@code async_request_trt_llm} speaks it: {@code {"accumulate_tokens": true, "text_input",
 * "temperature": 0.0, "top_p": 1.0, "max_tokens", "stream": true}} plus {@code "min_length"} = the
 * output length with {@code --ignore-eos}; no Authorization header. Every SSE event is a timing
 * event and its {@code text_output} is appended; output tokens are the tokenizer's count of the text.
 */
final class TensorRtLlmBackend implements Backend {

    private static final EventParser READER = new TritonEventReader();

    @Override
    public String name() {
        return "tensorrt-llm";
    }

    @Override
    public void check(BackendSettings settings) {
        RequestParts.pathEndsWith(name(), settings, "generate_stream");
        RequestParts.refuseSampling(name(), settings.sampling());
    }

    @Override
    public HttpCall buildRequest(BackendSettings settings, PromptRequest request) {
        check(settings);
        byte[] body = RequestParts.json(json -> {
            json.writeBooleanField("accumulate_tokens", true);
            json.writeStringField("text_input", request.prompt());
            json.writeNumberField("temperature", 0.0);
            json.writeNumberField("top_p", 1.0);
            json.writeNumberField("max_tokens", request.maxTokens());
            json.writeBooleanField("stream", true);
            if (settings.sampling().ignoreEos()) {
                json.writeNumberField("min_length", request.maxTokens());
            }
        });
        return new HttpCall(
                settings.endpoint(), RequestParts.headers(settings, request, "application/json", false), body);
    }

    @Override
    public ResponseTracker newResponse() {
        return new ResponseTracker(READER, false, true);
    }
}
