package io.tokenpulse.producer.dataset;

import io.tokenpulse.tokenizers.ChatMessage;
import io.tokenpulse.tokenizers.Tokenizer;
import java.util.List;
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
 * @param conversation the session this request opens (multi-turn datasets), or null for a single
 *     request; then {@code prompt}, {@code promptLen} and {@code expectedOutputLen} are its first turn's,
 *     and the later turns are built as the session goes
 */
public record SampledRequest(
        Prompt prompt,
        int promptLen,
        int expectedOutputLen,
        int index,
        OptionalLong arrivalOffsetNs,
        Conversation conversation) {

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

    /** A single request, at the dataset's own time or on the schedule. */
    public SampledRequest(
            Prompt prompt, int promptLen, int expectedOutputLen, int index, OptionalLong arrivalOffsetNs) {
        this(prompt, promptLen, expectedOutputLen, index, arrivalOffsetNs, null);
    }

    /** The first turn of {@code conversation}, opening a session on the arrival schedule. */
    public static SampledRequest session(Conversation conversation, Tokenizer tokenizer, int index) {
        List<ChatMessage> first = conversation.messages(0, List.of());
        return new SampledRequest(
                new Prompt.Chat(first),
                ChatPromptLength.of(tokenizer, first),
                conversation.turns().get(0).outputLen(),
                index,
                OptionalLong.empty(),
                conversation);
    }

    /** Turns this request stands for: a session's, or 1. */
    public int turns() {
        return conversation == null ? 1 : conversation.turns().size();
    }

    /** A request sent when the arrival schedule says. */
    public SampledRequest(Prompt prompt, int promptLen, int expectedOutputLen, int index) {
        this(prompt, promptLen, expectedOutputLen, index, OptionalLong.empty(), null);
    }
}
