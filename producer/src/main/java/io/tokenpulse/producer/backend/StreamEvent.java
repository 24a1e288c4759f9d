package io.tokenpulse.producer.backend;

/**
 * What one streamed data event says, read from its JSON payload.
 *
 * @param hasChoices the event carries a non-empty {@code choices} array: a timing event
 *     (docs/metrics.md, {@code first} and {@code event_i}), even when its text is empty; for the
 *     typed-event APIs (Responses, Messages) an answer or thinking delta
 * @param text the text delta of the first choice ({@code text} for completions,
 *     {@code delta.content} for chat); empty when there is none
 * @param usage the {@code usage} object when the event carries one, else null
 * @param error why the event is an error: the server's {@code error} message, or why the
 *     payload could not be read; null for a good event
 * @param wholeText the whole generated text so far when the event states it (TGI's last event
 *     carries {@code generated_text}, which vLLM keeps instead of the deltas); else null
 * @param reasoning a reasoning model's thinking in this event (chat {@code delta.reasoning_content},
 *     or {@code delta.reasoning}); output, but not part of the answer text; empty when none
 * @param endsStream the event is the one a complete stream ends with in an API whose streams must
 *     end with one (Responses' {@code response.completed}, Messages' {@code message_stop})
 */
public record StreamEvent(
        boolean hasChoices,
        String text,
        Usage usage,
        String error,
        String wholeText,
        String reasoning,
        boolean endsStream) {

    public StreamEvent {
        if (text == null || reasoning == null) {
            throw new IllegalArgumentException("text and reasoning must not be null; use \"\"");
        }
    }

    /** An event of an API whose streams need no closing event. */
    public StreamEvent(boolean hasChoices, String text, Usage usage, String error, String wholeText, String reasoning) {
        this(hasChoices, text, usage, error, wholeText, reasoning, false);
    }

    /** An event that states the whole text so far and carries no reasoning. */
    public StreamEvent(boolean hasChoices, String text, Usage usage, String error, String wholeText) {
        this(hasChoices, text, usage, error, wholeText, "");
    }

    /** An event that adds {@code text} to what came before. */
    public StreamEvent(boolean hasChoices, String text, Usage usage, String error) {
        this(hasChoices, text, usage, error, null, "");
    }

    static StreamEvent malformed(String why) {
        return new StreamEvent(false, "", null, "malformed event: " + why);
    }

    static StreamEvent failed(String reason) {
        return new StreamEvent(false, "", null, reason);
    }

    /**
     * Token counts reported by the server; any may be null when the server left it out.
     *
     * @param promptTokens {@code usage.prompt_tokens}
     * @param completionTokens {@code usage.completion_tokens}
     * @param reasoningTokens {@code usage.completion_tokens_details.reasoning_tokens}: the thinking's
     *     share of the completion tokens (OpenAI, vLLM with a reasoning parser)
     * @param cachedTokens {@code usage.prompt_tokens_details.cached_tokens}: prompt tokens the server
     *     served from its prefix cache (OpenAI; vLLM with prefix caching)
     */
    public record Usage(Integer promptTokens, Integer completionTokens, Integer reasoningTokens, Integer cachedTokens) {

        /** Usage without a reasoning count. */
        public Usage(Integer promptTokens, Integer completionTokens) {
            this(promptTokens, completionTokens, null, null);
        }

        /** Usage without a cached-token count. */
        public Usage(Integer promptTokens, Integer completionTokens, Integer reasoningTokens) {
            this(promptTokens, completionTokens, reasoningTokens, null);
        }

        /**
         * These counts with {@code later}'s where it states them: Anthropic's Messages API reports the
         * input tokens at the start of a stream and the output tokens near its end, in two events.
         */
        public Usage updatedBy(Usage later) {
            return new Usage(
                    later.promptTokens != null ? later.promptTokens : promptTokens,
                    later.completionTokens != null ? later.completionTokens : completionTokens,
                    later.reasoningTokens != null ? later.reasoningTokens : reasoningTokens,
                    later.cachedTokens != null ? later.cachedTokens : cachedTokens);
        }
    }
}
