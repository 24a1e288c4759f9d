package io.tokenpulse.aggregator.metrics;

import java.util.List;

/**
 * The {@code --probe-request-rate} requests' own figures: single-token requests sent outside
 * {@code --max-concurrency}, kept out of every other figure of the run (vllm#49611).
 *
 * @param completed successful probes
 * @param failed    failed probes
 * @param metrics   TTFT and E2EL of the successful probes
 */
public record ProbeResult(long completed, long failed, List<MetricStats> metrics) {

    /** What the probe section shows. */
    public static final PercentileMetrics METRICS = new PercentileMetrics(List.of(Metric.TTFT, Metric.E2EL));

    public ProbeResult {
        metrics = List.copyOf(metrics);
    }

    /** The probes' figures from an accumulator that holds only them. */
    public static ProbeResult of(MetricsAccumulator probes, MetricPercentiles percentiles) {
        return new ProbeResult(
                probes.completed(),
                probes.failed(),
                METRICS.metrics().stream()
                        .map(m -> probes.stats(m, percentiles.percentiles()))
                        .toList());
    }
}
