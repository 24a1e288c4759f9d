package io.tokenpulse.simulator.wire;

/**
 * The pooling endpoints the simulator serves, as vLLM's OpenAI-compatible server does for embedding,
 * reranker and cross-encoder models: one JSON request, one JSON answer, no generated tokens.
 */
public enum PoolingEndpoint {
    /** {@code POST /v1/embeddings}: {@code input} → one vector per input. */
    EMBEDDINGS("embd-"),
    /** {@code POST /rerank}, {@code /v1/rerank}: {@code query} and {@code documents} → the documents by relevance. */
    RERANK("rerank-"),
    /** {@code POST /score}, {@code /v1/score}: {@code text_1} and {@code text_2} → one score per pair. */
    SCORE("score-");

    final String idPrefix;

    PoolingEndpoint(String idPrefix) {
        this.idPrefix = idPrefix;
    }

    /** The endpoint served at {@code path}, or null when the path is not a pooling one. */
    public static PoolingEndpoint at(String path) {
        return switch (path) {
            case "/v1/embeddings" -> EMBEDDINGS;
            case "/rerank", "/v1/rerank", "/v2/rerank" -> RERANK;
            case "/score", "/v1/score" -> SCORE;
            default -> null;
        };
    }
}
