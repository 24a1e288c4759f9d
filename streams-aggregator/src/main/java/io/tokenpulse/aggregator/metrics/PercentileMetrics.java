package io.tokenpulse.aggregator.metrics;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The metrics selected with {@code --percentile-metrics} (vLLM's default {@code ttft,tpot,itl}), kept
 * in vLLM's fixed print order whatever order the user wrote. Immutable.
 *
 * @param metrics the selected metrics, in {@link Metric} order, without repeats; empty only after
 *     {@link #forRun} dropped every one
 */
public record PercentileMetrics(List<Metric> metrics) {

    /** vLLM's default selection. */
    public static final PercentileMetrics DEFAULT =
            new PercentileMetrics(List.of(Metric.TTFT, Metric.TPOT, Metric.ITL));

    public PercentileMetrics {
        Set<Metric> set = metrics.isEmpty() ? EnumSet.noneOf(Metric.class) : EnumSet.copyOf(metrics);
        if (!Metric.SELECTABLE.containsAll(set)) {
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
        return nonEmpty(new PercentileMetrics(java.util.Arrays.stream(commaSeparated.split(",", -1))
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
                .toList()));
    }

    private static PercentileMetrics nonEmpty(PercentileMetrics selection) {
        if (selection.metrics().isEmpty()) {
            throw new IllegalArgumentException("select one or more of " + Metric.keys(Metric.SELECTABLE));
        }
        return selection;
    }

    /**
     * The metrics a run can report, as vLLM decides: {@code client_queue_time} only with a
     * {@code --max-concurrency} limit, {@code e2el_including_client_queue} only with a limit and a finite
     * request rate (at {@code inf} every request is due at the start, so it would time the queue from
     * the run's start). The others are kept as they are.
     *
     * @see "docs/metrics.md, Per-request values: rows client queue time, E2EL including client queue"
     */
    public PercentileMetrics forRun(boolean concurrencyLimited, double requestRate) {
        return new PercentileMetrics(metrics.stream()
                .filter(m -> m != Metric.CLIENT_QUEUE_TIME || concurrencyLimited)
                .filter(m ->
                        m != Metric.E2EL_INCLUDING_CLIENT_QUEUE || (concurrencyLimited && Double.isFinite(requestRate)))
                .toList());
    }

    /** The metrics named by their keys (as RunStarted.selected_metrics carries them). */
    public static PercentileMetrics ofKeys(List<String> keys) {
        return nonEmpty(new PercentileMetrics(
                keys.stream().map(key -> Metric.ofKey(key, Metric.SELECTABLE)).toList()));
    }

    /** The selected metrics' keys, in print order. */
    public List<String> keys() {
        return metrics.stream().map(Metric::key).toList();
    }

    public boolean contains(Metric metric) {
        return metrics.contains(metric);
    }
}
