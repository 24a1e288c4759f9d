package io.tokenpulse.producer.backend;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;

/**
 * What the backends of a {@code generate_stream} endpoint share (TGI's, TensorRT-LLM's Triton
 * ensemble's), as vLLM's clients for them speak it: vLLM's fixed sampling parameters (the sampling
 * flags are refused, {@code --ignore-eos} is sent), no Authorization header, and every SSE event a
 * timing event.
 */
abstract class GenerateStreamBackend implements Backend {

    private final String name;
    private final EventParser reader;

    GenerateStreamBackend(String name, EventParser reader) {
        this.name = name;
        this.reader = reader;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final void check(BackendSettings settings) {
        RequestParts.pathEndsWith(name, settings, "generate_stream");
        RequestParts.refuseSampling(name, settings.sampling());
    }

    @Override
    public final HttpCall buildRequest(BackendSettings settings, PromptRequest request) {
        check(settings);
        byte[] body = RequestParts.json(json -> writeFields(json, settings.sampling(), request));
        return new HttpCall(
                settings.endpoint(), RequestParts.headers(settings, request, "application/json", false), body);
    }

    /** The body's fields, the server's own names for the prompt and vLLM's fixed parameters. */
    abstract void writeFields(JsonGenerator json, BackendSettings.Sampling sampling, PromptRequest request)
            throws IOException;

    @Override
    public final ResponseTracker newResponse() {
        return new ResponseTracker(reader, false, true);
    }
}
