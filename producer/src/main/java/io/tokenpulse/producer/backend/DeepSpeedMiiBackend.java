package io.tokenpulse.producer.backend;

/**
 * DeepSpeed-MII's OpenAI-style completions as vLLM's {@code async_request_deepspeed_mii} speaks
 * it: {@code {"model", "prompt", "max_tokens", "temperature": 0.01, "top_p": 1.0}}, not streamed.
 * The one JSON body is the one timing event: TTFT = E2EL = when the body was complete, no ITL
 * samples. (vLLM writes TTFT 0 as a placeholder, which makes its TPOT E2EL / (n - 1); here TTFT is
 * measured, so TPOT is 0.) Output tokens are the tokenizer's count of the text.
 */
final class DeepSpeedMiiBackend implements Backend {

    private static final EventParser READER = new MiiBodyReader();

    @Override
    public String name() {
        return "deepspeed-mii";
    }

    @Override
    public void check(BackendSettings settings) {
        RequestParts.pathEndsWith(name(), settings, "completions", "profile");
        RequestParts.refuseSampling(name(), settings.sampling());
        RequestParts.refuseIgnoreEos(name(), settings.sampling());
    }

    @Override
    public HttpCall buildRequest(BackendSettings settings, PromptRequest request) {
        check(settings);
        byte[] body = RequestParts.json(json -> {
            json.writeStringField("model", request.modelOr(settings.model()));
            json.writeStringField("prompt", request.prompt());
            json.writeNumberField("max_tokens", request.maxTokens());
            json.writeNumberField("temperature", 0.01);
            json.writeNumberField("top_p", 1.0);
        });
        return new HttpCall(
                settings.endpoint(), RequestParts.headers(settings, request, "application/json", true), body);
    }

    @Override
    public ResponseTracker newResponse() {
        return new ResponseTracker(READER, false, false);
    }
}
