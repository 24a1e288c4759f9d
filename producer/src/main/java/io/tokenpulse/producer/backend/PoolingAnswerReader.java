package io.tokenpulse.producer.backend;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Reads a pooling API's whole answer (embeddings, rerank, score): an error object fails the request;
 * otherwise the answer must hold its results array ({@code data} or {@code results}), and its
 * {@code usage} gives the input tokens: {@code prompt_tokens}, else {@code total_tokens} (vLLM's rerank
 * answer reports only that, and a pooling answer generates nothing, so the two are equal). The
 * answer's vectors and scores are not kept: a benchmark measures when they arrived. Stateless and
 * thread-safe.
 */
final class PoolingAnswerReader extends JsonAnswerReader {

    private final String resultsField;

    /** @param resultsField the array every good answer carries: {@code data} or {@code results} */
    PoolingAnswerReader(String resultsField) {
        this.resultsField = resultsField;
    }

    @Override
    StreamEvent answer(JsonNode body) {
        if (!body.path(resultsField).isArray()) {
            return StreamEvent.malformed("the answer has no '" + resultsField + "' array");
        }
        return new StreamEvent(false, "", usage(body.path("usage")), null);
    }

    /** The input tokens the answer reports, or null when its usage says nothing. */
    private static StreamEvent.Usage usage(JsonNode usage) {
        JsonNode tokens = usage.path("prompt_tokens").isIntegralNumber()
                ? usage.path("prompt_tokens")
                : usage.path("total_tokens");
        return tokens.isIntegralNumber() ? new StreamEvent.Usage(tokens.asInt(), null) : null;
    }
}
