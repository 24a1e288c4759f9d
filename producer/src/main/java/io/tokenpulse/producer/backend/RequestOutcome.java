package io.tokenpulse.producer.backend;

/**
 * How one request ended (METRICS.md, success), with the timing the stream gave.
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
 * @param reasoningText a reasoning model's concatenated thinking (chat {@code reasoning_content} or
 *     {@code reasoning}), kept apart from the answer text; output all the same; empty when none
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
        String reasoningText) {

    public RequestOutcome {
        if (error == null || success != error.isEmpty()) {
            throw new IllegalArgumentException(
                    "a failure needs a reason and a success none, got success=" + success + " error=" + error);
        }
        if (success && firstNs == null) {
            throw new IllegalArgumentException("a successful request has a first event");
        }
        if (reasoningText == null) {
            reasoningText = "";
        }
    }

    /** An outcome without reasoning text. */
    public RequestOutcome(
            boolean success,
            int httpStatus,
            String error,
            int chunkEvents,
            Long firstNs,
            Long lastNs,
            StreamEvent.Usage usage,
            String generatedText,
            boolean doneSeen) {
        this(success, httpStatus, error, chunkEvents, firstNs, lastNs, usage, generatedText, doneSeen, "");
    }

    /** Output tokens reported by the server when it reported a positive count, else null. */
    public Integer reportedOutputTokens() {
        return usage == null || usage.completionTokens() == null || usage.completionTokens() <= 0
                ? null
                : usage.completionTokens();
    }
}
