package io.tokenpulse.aggregator.metrics;

import java.util.ArrayList;
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
 * @see "METRICS.md, the paragraph after Run values: mean, median, std, percentiles"
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
        if (count < 0 || !(meanMs >= 0) || !(medianMs >= 0) || !(stdMs >= 0)) {
            throw new IllegalArgumentException("count, mean, median and std of " + metric + " must be >= 0, got "
                    + count + ", " + meanMs + ", " + medianMs + ", " + stdMs);
        }
        percentiles = List.copyOf(percentiles);
    }

    static MetricStats of(
            Metric metric,
            long count,
            double meanMs,
            double medianMs,
            double stdMs,
            List<Double> percentiles,
            double[] percentileMs,
            boolean exact) {
        List<PercentileValue> values = new ArrayList<>(percentiles.size());
        for (int i = 0; i < percentileMs.length; i++) {
            values.add(new PercentileValue(percentiles.get(i), percentileMs[i]));
        }
        return new MetricStats(metric, count, meanMs, medianMs, stdMs, values, exact);
    }
}
