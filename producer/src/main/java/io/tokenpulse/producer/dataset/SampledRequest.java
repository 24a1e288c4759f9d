package io.tokenpulse.producer.dataset;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * One request to send: what vLLM's {@code SampleRequest} holds.
 *
 * @param prompt the prompt text or chat messages to send
 * @param promptLen prompt length in tokens, as vLLM counts it for this dataset (the "total input tokens")
 * @param expectedOutputLen tokens to ask for ({@code max_tokens})
 * @param index position in the sample, 0-based; vLLM appends it to {@code --request-id-prefix}
 * @param arrivalOffsetNs when the dataset's own times say the request is due, ns after the schedule
 *     start (trace replay); empty when the arrival schedule ({@code --request-rate}) decides
 */
public record SampledRequest(
        Prompt prompt, int promptLen, int expectedOutputLen, int index, OptionalLong arrivalOffsetNs) {

    public SampledRequest {
        Objects.requireNonNull(prompt, "prompt");
        Objects.requireNonNull(arrivalOffsetNs, "arrivalOffsetNs");
        if (promptLen < 0) {
            throw new IllegalArgumentException("promptLen must be >= 0, got " + promptLen);
        }
        if (expectedOutputLen < 1) {
            throw new IllegalArgumentException("expectedOutputLen must be >= 1, got " + expectedOutputLen);
        }
        if (index < 0) {
            throw new IllegalArgumentException("index must be >= 0, got " + index);
        }
        if (arrivalOffsetNs.isPresent() && arrivalOffsetNs.getAsLong() < 0) {
            throw new IllegalArgumentException("arrivalOffsetNs must be >= 0, got " + arrivalOffsetNs.getAsLong());
        }
    }

    /** A request sent when the arrival schedule says. */
    public SampledRequest(Prompt prompt, int promptLen, int expectedOutputLen, int index) {
        this(prompt, promptLen, expectedOutputLen, index, OptionalLong.empty());
    }
}
