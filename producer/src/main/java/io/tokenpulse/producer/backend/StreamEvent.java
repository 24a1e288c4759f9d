package io.tokenpulse.producer.backend;

/**
 * What one streamed data event says, read from its JSON payload.
 *
 * @param hasChoices the event carries a non-empty {@code choices} array: a timing event
 *     (METRICS.md, {@code first} and {@code event_i}), even when its text is empty
 * @param text the text delta of the first choice ({@code text} for completions,
 *     {@code delta.content} for chat); empty when there is none
 * @param usage the {@code usage} object when the event carries one, else null
 * @param error why the event is an error: the server's {@code error} message, or why the
 *     payload could not be read; null for a good event
 */
public record StreamEvent(boolean hasChoices, String text, Usage usage, String error) {

    public StreamEvent {
        if (text == null) {
            throw new IllegalArgumentException("text must not be null; use \"\"");
        }
    }

    static StreamEvent malformed(String why) {
        return new StreamEvent(false, "", null, "malformed event: " + why);
    }

    /**
     * Token counts reported by the server; either may be null when the server left it out.
     *
     * @param promptTokens {@code usage.prompt_tokens}
     * @param completionTokens {@code usage.completion_tokens}
     */
    public record Usage(Integer promptTokens, Integer completionTokens) {
    }
}
