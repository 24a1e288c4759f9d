package io.tokenpulse.aggregator.metrics;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The metrics selected with {@code --percentile-metrics} (vLLM's default {@code ttft,tpot,itl}), kept
 * in vLLM's fixed print order whatever order the user wrote. Immutable.
 *
 * @param metrics the selected metrics, in {@link Metric} order, without repeats
 */
public record PercentileMetrics(List<Metric> metrics) {

    /** vLLM's default selection. */
    public static final PercentileMetrics DEFAULT =
            new PercentileMetrics(List.of(Metric.TTFT, Metric.TPOT, Metric.ITL));

    public PercentileMetrics {
        Set<Metric> set = metrics.isEmpty() ? EnumSet.noneOf(Metric.class) : EnumSet.copyOf(metrics);
        if (set.isEmpty() || !Metric.SELECTABLE.containsAll(set)) {
            throw new IllegalArgumentException(
                    "select one or more of " + Metric.keys(Metric.SELECTABLE) + ", got " + metrics);
        }
        metrics = List.copyOf(set);
    }

    /**
     * Parses a comma-separated list such as {@code ttft,tpot,itl,e2el,token_latency}; an unknown name
     * fails with the list of allowed ones. {@code ttfo} is refused with its own reason: vLLM has no
     * such metric, and TokenPulse reports it by itself for reasoning runs, so a list with it would not
     * run under vLLM.
     */
    public static PercentileMetrics parse(String commaSeparated) {
        if (commaSeparated.isBlank()) {
            throw new IllegalArgumentException(
                    "--percentile-metrics is empty: give a comma-separated list of " + Metric.keys(Metric.SELECTABLE));
        }
        return new PercentileMetrics(java.util.Arrays.stream(commaSeparated.split(",", -1))
                .map(name -> {
                    if (name.trim().equalsIgnoreCase(ReasoningResult.TTFO_KEY)) {
                        throw new IllegalArgumentException("--percentile-metrics: ttfo is not one of vLLM's metrics;"
                                + " TTFO is reported by itself (at --metric-percentiles) for runs where a request"
                                + " thought: leave ttfo out");
                    }
                    try {
                        return Metric.ofKey(name, Metric.SELECTABLE);
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException("--percentile-metrics: " + e.getMessage());
                    }
                })
                .toList());
    }

    /** The metrics named by their keys (as RunStarted.selected_metrics carries them). */
    public static PercentileMetrics ofKeys(List<String> keys) {
        return new PercentileMetrics(
                keys.stream().map(key -> Metric.ofKey(key, Metric.SELECTABLE)).toList());
    }

    /** The selected metrics' keys, in print order. */
    public List<String> keys() {
        return metrics.stream().map(Metric::key).toList();
    }

    public boolean contains(Metric metric) {
        return metrics.contains(metric);
    }
}
