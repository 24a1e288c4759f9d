package io.tokenpulse.producer.dataset;

import java.util.Objects;

/**
 * One request to send: what vLLM's {@code SampleRequest} holds.
 *
 * @param prompt the prompt text or chat messages to send
 * @param promptLen prompt length in tokens, as vLLM counts it for this dataset (the "total input tokens")
 * @param expectedOutputLen tokens to ask for ({@code max_tokens})
 * @param index position in the sample, 0-based; vLLM appends it to {@code --request-id-prefix}
 */
public record SampledRequest(Prompt prompt, int promptLen, int expectedOutputLen, int index) {

    public SampledRequest {
        Objects.requireNonNull(prompt, "prompt");
        if (promptLen < 0) {
            throw new IllegalArgumentException("promptLen must be >= 0, got " + promptLen);
        }
        if (expectedOutputLen < 1) {
            throw new IllegalArgumentException("expectedOutputLen must be >= 1, got " + expectedOutputLen);
        }
        if (index < 0) {
            throw new IllegalArgumentException("index must be >= 0, got " + index);
        }
    }
}
