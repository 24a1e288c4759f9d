package io.tokenpulse.producer.backend;

/**
 * One benchmark request's own values.
 *
 * @param requestId sent as {@code x-request-id}, so server logs can be matched to records
 * @param prompt the prompt text as the dataset produced it
 * @param maxTokens output tokens asked for ({@code max_tokens} / {@code max_completion_tokens})
 */
public record PromptRequest(String requestId, String prompt, int maxTokens) {

    public PromptRequest {
        if (requestId == null || requestId.isBlank()) {
            throw new IllegalArgumentException("requestId must not be blank");
        }
        if (prompt == null) {
            throw new IllegalArgumentException("prompt must not be null (request " + requestId + ")");
        }
        if (maxTokens < 1) {
            throw new IllegalArgumentException(
                    "output length must be >= 1, got " + maxTokens + " (request " + requestId + ")");
        }
    }
}
