package io.tokenpulse.simulator;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Whose metric names the simulator's {@code GET /metrics} uses: vLLM's V1 engine
 * ({@code vllm/v1/metrics/loggers.py}) or SGLang's ({@code sglang/srt/metrics/collector.py}). Both
 * label every series with {@code model_name}.
 */
public enum MetricsStyle {
    VLLM(
            "vllm:num_requests_running",
            "vllm:num_requests_waiting",
            "vllm:kv_cache_usage_perc",
            "vllm:time_to_first_token_seconds",
            "vllm:inter_token_latency_seconds",
            "vllm:e2e_request_latency_seconds",
            "vllm:prompt_tokens",
            "vllm:generation_tokens"),
    SGLANG(
            "sglang:num_running_reqs",
            "sglang:num_queue_reqs",
            "sglang:token_usage",
            "sglang:time_to_first_token_seconds",
            "sglang:inter_token_latency_seconds",
            "sglang:e2e_request_latency_seconds",
            "sglang:prompt_tokens",
            "sglang:generation_tokens");

    final String running;
    final String waiting;
    final String kvCacheUsage;
    final String ttft;
    final String itl;
    final String e2e;
    /** Counters: the text format adds {@code _total}. */
    final String promptTokens;

    final String generationTokens;

    MetricsStyle(
            String running,
            String waiting,
            String kvCacheUsage,
            String ttft,
            String itl,
            String e2e,
            String promptTokens,
            String generationTokens) {
        this.running = running;
        this.waiting = waiting;
        this.kvCacheUsage = kvCacheUsage;
        this.ttft = ttft;
        this.itl = itl;
        this.e2e = e2e;
        this.promptTokens = promptTokens;
        this.generationTokens = generationTokens;
    }

    /** The style named {@code name} (vllm, sglang), or an error listing the known names. */
    public static MetricsStyle named(String name) {
        for (MetricsStyle style : values()) {
            if (style.flagName().equals(name)) {
                return style;
            }
        }
        throw new IllegalArgumentException("unknown metrics style '" + name + "'; use one of "
                + Arrays.stream(values()).map(MetricsStyle::flagName).collect(Collectors.joining(", ")));
    }

    public String flagName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
