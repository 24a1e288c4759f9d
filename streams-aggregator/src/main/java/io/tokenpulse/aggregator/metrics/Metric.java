package io.tokenpulse.aggregator.metrics;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * A latency metric with a distribution: vLLM's four, the token latency of mid-2025 benchmark_serving.py reports, and the queue-delay
 * extension. Declaration order is the order vLLM prints and saves them in, whatever order the user
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
    QUEUE_DELAY("queue_delay");

    /** The metrics --percentile-metrics accepts, in vLLM's order. */
    static final List<Metric> SELECTABLE = List.of(TTFT, TPOT, ITL, E2EL, TOKEN_LATENCY);

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
