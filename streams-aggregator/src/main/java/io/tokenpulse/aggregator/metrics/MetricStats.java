package io.tokenpulse.aggregator.metrics;

import java.util.List;

/**
 * Summary of one metric's samples in milliseconds: mean, median (P50), population std (ddof 0) and
 * the selected percentiles (linear interpolation, numpy's default); all 0 for an empty set.
 *
 * @param metric      which metric
 * @param count       number of samples
 * @param meanMs      arithmetic mean
 * @param medianMs    median
 * @param stdMs       population standard deviation
 * @param percentiles the selected percentiles, in the order asked
 * @param exact       false when the figures come from the sketch (relative error <= 0.1 %); mean and
 *                    std stay exact up to float rounding
 * @see "docs/metrics.md, Statistics"
 */
public record MetricStats(
        Metric metric,
        long count,
        double meanMs,
        double medianMs,
        double stdMs,
        List<PercentileValue> percentiles,
        boolean exact) {

    /** One percentile of a metric: {@code percentile} in [0, 100], value in ms. */
    public record PercentileValue(double percentile, double valueMs) {
        public PercentileValue {
            if (!(percentile >= 0 && percentile <= 100) || !(valueMs >= 0)) {
                throw new IllegalArgumentException(
                        "need percentile in [0, 100] and value >= 0, got P" + percentile + " = " + valueMs);
            }
        }
    }

    public MetricStats {
        if (metric == null) {
            throw new IllegalArgumentException("metric must not be null");
        }
        // LatencyStats checks the values: one set of rules for both
        percentiles = new LatencyStats(count, meanMs, medianMs, stdMs, percentiles, exact).percentiles();
    }

    /** A metric's statistics from its latency summary. */
    public static MetricStats of(Metric metric, LatencyStats stats) {
        return new MetricStats(
                metric,
                stats.count(),
                stats.meanMs(),
                stats.medianMs(),
                stats.stdMs(),
                stats.percentiles(),
                stats.exact());
    }

    /** The statistics without the metric's name. */
    public LatencyStats latency() {
        return new LatencyStats(count, meanMs, medianMs, stdMs, percentiles, exact);
    }
}
