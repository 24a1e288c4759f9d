package io.tokenpulse.aggregator.metrics;

import java.util.ArrayList;
import java.util.List;

/**
 * Summary of one latency's samples in milliseconds: mean, median (P50), population std (ddof 0) and
 * the selected percentiles (linear interpolation, numpy's default); all 0 for an empty set. A
 * {@link Metric}'s statistics are a {@link MetricStats}; this is the same summary for a latency that
 * is not one (the time to first output token, kept apart so that the accumulator's serialized state
 * does not change).
 *
 * @param count       number of samples
 * @param meanMs      arithmetic mean
 * @param medianMs    median
 * @param stdMs       population standard deviation
 * @param percentiles the selected percentiles, in the order asked
 * @param exact       false when the figures come from the sketch (relative error <= 0.1 %); mean and
 *                    std stay exact up to float rounding
 * @see "docs/metrics.md, Statistics"
 */
public record LatencyStats(
        long count,
        double meanMs,
        double medianMs,
        double stdMs,
        List<MetricStats.PercentileValue> percentiles,
        boolean exact) {

    public LatencyStats {
        if (count < 0 || !(meanMs >= 0) || !(medianMs >= 0) || !(stdMs >= 0)) {
            throw new IllegalArgumentException("count, mean, median and std must be >= 0, got " + count + ", " + meanMs
                    + ", " + medianMs + ", " + stdMs);
        }
        percentiles = List.copyOf(percentiles);
    }

    static LatencyStats of(
            long count,
            double meanMs,
            double medianMs,
            double stdMs,
            List<Double> percentiles,
            double[] percentileMs,
            boolean exact) {
        List<MetricStats.PercentileValue> values = new ArrayList<>(percentiles.size());
        for (int i = 0; i < percentileMs.length; i++) {
            values.add(new MetricStats.PercentileValue(percentiles.get(i), percentileMs[i]));
        }
        return new LatencyStats(count, meanMs, medianMs, stdMs, values, exact);
    }
}
