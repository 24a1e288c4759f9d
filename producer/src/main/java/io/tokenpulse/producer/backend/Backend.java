package io.tokenpulse.producer.backend;

import io.tokenpulse.producer.dataset.Prompt;

/**
 * One serving API's wire format: how to write a benchmark request and how to read the streamed
 * answer. Implementations are stateless and thread-safe; the per-request state lives in the
 * {@link ResponseTracker} each request gets from {@link #newResponse()}.
 *
 * <p>Look backends up by their {@code --backend} name with {@link Backends#get(String)}.
 */
public interface Backend {

    /** The {@code --backend} name, e.g. {@code vllm} or {@code openai-chat}. */
    String name();

    /**
     * Checks, once before the run, that the settings suit this backend (endpoint path, options
     * the API cannot take).
     *
     * @throws IllegalArgumentException with a one-line message naming the flag to change
     */
    void check(BackendSettings settings);

    /**
     * The HTTP POST for one prompt. Checks the settings as {@link #check} does, so a request is
     * never built for an endpoint that cannot answer it.
     */
    HttpCall buildRequest(BackendSettings settings, PromptRequest request);

    /** Fresh state for reading one streamed response. */
    ResponseTracker newResponse();

    /**
     * Seconds of audio the request for {@code prompt} sends (vLLM's {@code input_audio_duration}, what
     * RTFx sums); 0 for an API that takes no audio.
     */
    default double inputAudioSeconds(Prompt prompt) {
        return 0;
    }
}
