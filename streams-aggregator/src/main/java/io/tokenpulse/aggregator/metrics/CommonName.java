package io.tokenpulse.aggregator.metrics;

import java.util.List;
import java.util.Optional;

/**
 * The small set of server series TokenPulse compares across engines, and the one table that maps each
 * engine's own names onto it (docs/server-metrics.md shows the same table). A series not in the table
 * is kept raw on the topic and left out of the windows and the server section.
 */
public enum CommonName {
    /** Requests in the running batch (gauge). */
    RUNNING,
    /** Requests queued for the batch (gauge). */
    WAITING,
    /** Fraction 0..1 of the KV cache in use (gauge). */
    KV_CACHE_USAGE,
    /** Prefix-cache hit rate 0..1 where the engine exposes it as a gauge. */
    PREFIX_CACHE_HIT_RATE,
    /** Prefix-cache lookups, in tokens (counter): the hit rate is hits / queries over the run. */
    PREFIX_CACHE_QUERIES,
    /** Prefix-cache hits, in tokens (counter). */
    PREFIX_CACHE_HITS,
    /** Requests preempted (counter). */
    PREEMPTIONS,
    /** Server-side time to first token, seconds (histogram). */
    SERVER_TTFT,
    /** Server-side time between tokens, seconds (histogram). */
    SERVER_ITL,
    /** Speculative decoding: draft tokens proposed (counter). */
    SPEC_DECODE_DRAFT_TOKENS,
    /** Speculative decoding: draft tokens accepted (counter). */
    SPEC_DECODE_ACCEPTED_TOKENS,
    /** Speculative decoding: drafts proposed, one per step of a request (counter). */
    SPEC_DECODE_DRAFTS;

    /** Whether a scrape's value stands alone (gauge) rather than growing over the run (counter, histogram). */
    boolean isGauge() {
        return this == RUNNING || this == WAITING || this == KV_CACHE_USAGE || this == PREFIX_CACHE_HIT_RATE;
    }

    /**
     * An engine's series that means {@code common}: its name, a label it must carry (or none), and the
     * factor to the common unit (seconds, fraction).
     */
    record Mapping(String name, String label, String labelValue, CommonName common, double scale) {
        Mapping(String name, CommonName common) {
            this(name, null, null, common, 1);
        }

        boolean matches(ServerSample series) {
            return series.name().equals(name)
                    && (label == null || labelValue.equals(series.labels().get(label)));
        }
    }

    /** Engine by engine: vLLM (V1 and V0 names), SGLang, TGI, TensorRT-LLM on Triton, llama.cpp's server. */
    static final List<Mapping> TABLE = List.of(
            new Mapping("vllm:num_requests_running", RUNNING),
            new Mapping("vllm:num_requests_waiting", WAITING),
            new Mapping("vllm:kv_cache_usage_perc", KV_CACHE_USAGE),
            new Mapping("vllm:gpu_cache_usage_perc", KV_CACHE_USAGE),
            new Mapping("vllm:prefix_cache_queries_total", PREFIX_CACHE_QUERIES),
            new Mapping("vllm:prefix_cache_hits_total", PREFIX_CACHE_HITS),
            new Mapping("vllm:gpu_prefix_cache_queries_total", PREFIX_CACHE_QUERIES),
            new Mapping("vllm:gpu_prefix_cache_hits_total", PREFIX_CACHE_HITS),
            new Mapping("vllm:num_preemptions_total", PREEMPTIONS),
            new Mapping("vllm:time_to_first_token_seconds", SERVER_TTFT),
            new Mapping("vllm:inter_token_latency_seconds", SERVER_ITL),
            new Mapping("vllm:spec_decode_num_draft_tokens_total", SPEC_DECODE_DRAFT_TOKENS),
            new Mapping("vllm:spec_decode_num_accepted_tokens_total", SPEC_DECODE_ACCEPTED_TOKENS),
            new Mapping("vllm:spec_decode_num_drafts_total", SPEC_DECODE_DRAFTS),
            new Mapping("vllm:time_per_output_token_seconds", SERVER_ITL),
            new Mapping("sglang:num_running_reqs", RUNNING),
            new Mapping("sglang:num_queue_reqs", WAITING),
            new Mapping("sglang:token_usage", KV_CACHE_USAGE),
            new Mapping("sglang:cache_hit_rate", PREFIX_CACHE_HIT_RATE),
            new Mapping("sglang:time_to_first_token_seconds", SERVER_TTFT),
            new Mapping("sglang:inter_token_latency_seconds", SERVER_ITL),
            new Mapping("sglang:time_per_output_token_seconds", SERVER_ITL),
            new Mapping("tgi_batch_current_size", RUNNING),
            new Mapping("tgi_queue_size", WAITING),
            new Mapping("tgi_request_mean_time_per_token_duration", SERVER_ITL),
            new Mapping("nv_trt_llm_request_metrics", "request_type", "active", RUNNING, 1),
            new Mapping("nv_trt_llm_request_metrics", "request_type", "waiting", WAITING, 1),
            new Mapping("nv_trt_llm_kv_cache_block_metrics", "kv_cache_block_type", "fraction", KV_CACHE_USAGE, 1),
            new Mapping("nv_inference_first_response_histogram_ms", null, null, SERVER_TTFT, 1e-3),
            new Mapping("llamacpp:requests_processing", RUNNING),
            new Mapping("llamacpp:requests_deferred", WAITING),
            new Mapping("llamacpp:kv_cache_usage_ratio", KV_CACHE_USAGE));

    /** What {@code series} means in common terms, or empty when it is not in the table. */
    static Optional<Mapping> of(ServerSample series) {
        return TABLE.stream().filter(m -> m.matches(series)).findFirst();
    }
}
