package io.tokenpulse.producer.backend;

import java.util.List;

/**
 * How one request ended (docs/metrics.md, what counts as failed), with the timing the stream gave.
 *
 * @param success whether the request counts as successful
 * @param httpStatus the response status; 0 when none arrived
 * @param error the one-line failure reason; empty on success
 * @param chunkEvents timing events received ({@code choices} events)
 * @param firstNs {@link System#nanoTime()} of {@code first}; null when no timing event arrived
 * @param lastNs {@link System#nanoTime()} of {@code last}; null when no timing event arrived
 * @param usage the last {@code usage} the server reported, or null
 * @param generatedText the concatenated text deltas
 * @param doneSeen whether the stream ended with {@code [DONE]}
 * @param reasoning a reasoning model's thinking, kept apart from the answer, and when the answer
 *     began; {@link Reasoning#NONE} when the stream carried neither
 * @param emptyTextEvents positions (0 for {@code first}) of the timing events that carried neither
 *     answer text nor thinking (chat's role-only first event, a special token the server does not
 *     render), in stream order: the events GuideLLM, AIPerf, SGLang and inference-perf skip
 */
public record RequestOutcome(
        boolean success,
        int httpStatus,
        String error,
        int chunkEvents,
        Long firstNs,
        Long lastNs,
        StreamEvent.Usage usage,
        String generatedText,
        boolean doneSeen,
        Reasoning reasoning,
        List<Integer> emptyTextEvents) {

    public RequestOutcome {
        if (error == null || success != error.isEmpty()) {
            throw new IllegalArgumentException(
                    "a failure needs a reason and a success none, got success=" + success + " error=" + error);
        }
        if (success && firstNs == null) {
            throw new IllegalArgumentException("a successful request has a first event");
        }
        if (reasoning == null) {
            reasoning = Reasoning.NONE;
        }
        emptyTextEvents = emptyTextEvents == null ? List.of() : List.copyOf(emptyTextEvents);
    }

    /**
     * The part of a stream that is not the answer, and when the answer began (the extension "time
     * to first output token").
     *
     * @param text a reasoning model's concatenated thinking (chat {@code reasoning_content} or
     *     {@code reasoning}); output all the same; empty when none
     * @param events timing events that carried thinking
     * @param firstAnswerNs {@link System#nanoTime()} of the first timing event with non-empty answer
     *     text; null when none arrived
     */
    public record Reasoning(String text, int events, Long firstAnswerNs) {
        public static final Reasoning NONE = new Reasoning("", 0, null);

        public Reasoning {
            if (text == null || events < 0) {
                throw new IllegalArgumentException("need text (\"\" for none) and events >= 0, got " + events);
            }
        }
    }

    /** Output tokens reported by the server when it reported a positive count, else null. */
    public Integer reportedOutputTokens() {
        return usage == null || usage.completionTokens() == null || usage.completionTokens() <= 0
                ? null
                : usage.completionTokens();
    }
}
