package io.tokenpulse.aggregator.metrics;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * A latency metric with a distribution: vLLM's four, the token latency of mid-2025 benchmark_serving.py reports, the queue-delay
 * extension, and vLLM's two client-queue metrics (vllm#54101). Declaration order is the order vLLM prints and saves them in, whatever order the user
 * gave (docs/metrics.md, the console block).
 */
public enum Metric {
    /** {@code first - sent}, one value per request. */
    TTFT("ttft"),
    /** {@code (E2EL - TTFT) / (n - 1)}, one value per request with {@code n > 1}. */
    TPOT("tpot"),
    /** One sample per streamed event after the first, pooled over all requests. */
    ITL("itl"),
    /** {@code last - sent}, one value per request. */
    E2EL("e2el"),
    /** {@code E2EL / n}, one value per request with {@code n > 0} (as a May-2025 benchmark_serving.py report prints it). */
    TOKEN_LATENCY("token_latency"),
    /** Extension: {@code sent - scheduled}; never selectable with --percentile-metrics. */
    QUEUE_DELAY("queue_delay"),
    /**
     * vLLM's {@code permit - scheduled}: the wait for a {@code --max-concurrency} slot, one value per request;
     * reported only for a run with a limit (vLLM's rule).
     */
    CLIENT_QUEUE_TIME("client_queue_time"),
    /**
     * vLLM's client queue time + E2EL, one value per request; reported only for a run with a limit and a
     * finite request rate (vLLM's rule: at an infinite rate every request is due at the start).
     */
    E2EL_INCLUDING_CLIENT_QUEUE("e2el_including_client_queue");

    /** The metrics --percentile-metrics accepts, in vLLM's order. */
    static final List<Metric> SELECTABLE =
            List.of(TTFT, TPOT, ITL, E2EL, TOKEN_LATENCY, CLIENT_QUEUE_TIME, E2EL_INCLUDING_CLIENT_QUEUE);

    /** The metrics a stored accumulator of format 1 holds, in the order it wrote them. */
    static final List<Metric> FORMAT_1 = List.of(TTFT, TPOT, ITL, E2EL, TOKEN_LATENCY, QUEUE_DELAY);

    private final String key;

    Metric(String key) {
        this.key = key;
    }

    /** The name used on the command line and in result keys ({@code mean_<key>_ms}). */
    public String key() {
        return key;
    }

    /** Looks a metric up by its key; an unknown key fails with the list of known ones. */
    static Metric ofKey(String key, List<Metric> allowed) {
        String wanted = key.trim().toLowerCase(Locale.ROOT);
        return allowed.stream()
                .filter(m -> m.key.equals(wanted))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException(
                        "unknown metric '" + key.trim() + "': use one of " + keys(allowed)));
    }

    /** Looks a metric up by its key, e.g. in a stored run summary; unknown keys fail with the list. */
    public static Metric fromKey(String key) {
        return ofKey(key, all());
    }

    static String keys(List<Metric> metrics) {
        return metrics.stream().map(Metric::key).collect(Collectors.joining(", "));
    }

    static List<Metric> all() {
        return Arrays.asList(values());
    }
}
