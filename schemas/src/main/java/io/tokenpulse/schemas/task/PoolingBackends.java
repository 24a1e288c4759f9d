package io.tokenpulse.schemas.task;

import java.util.Set;

/**
 * The {@code --backend} names whose requests ask a pooling model for one answer (an embedding, a
 * rerank or a score) and generate no tokens: vLLM's {@code POOLING_BACKENDS} (its
 * {@code TaskType.POOLING}). Such a run has no streamed events: each request is one request record
 * with its E2EL and input tokens, and the report is vLLM's pooling block. Here, in the one module the
 * load generator and the aggregator share, because the aggregator knows a run's backend only by name.
 */
public final class PoolingBackends {

    /** The pooling backends TokenPulse speaks; {@code vllm-score} is ours (vLLM's client has no score backend). */
    public static final Set<String> NAMES = Set.of("openai-embeddings", "vllm-rerank", "vllm-score");

    private PoolingBackends() {}

    /** Whether {@code backend} is a pooling backend (no output tokens, no streamed events). */
    public static boolean contains(String backend) {
        return backend != null && NAMES.contains(backend);
    }
}
