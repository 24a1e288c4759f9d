package io.tokenpulse.aggregator.metrics;

import java.util.List;
import java.util.Optional;

/**
 * The {@code --probe-request-rate} requests' own figures: single-token requests sent outside
 * {@code --max-concurrency}, kept out of every other figure of the run (vllm#49611).
 *
 * @param completed successful probes
 * @param failed    failed probes
 * @param metrics   TTFT and E2EL of the successful probes
 * @param vllmE2el  the E2EL figures current {@code vllm bench serve} prints for its probes, whatever
 *                  {@code --metric-percentiles} selects; empty without a successful probe, as vLLM leaves them out
 */
public record ProbeResult(long completed, long failed, List<MetricStats> metrics, Optional<VllmE2el> vllmE2el) {

    /** vLLM's probe E2EL figures in ms ({@code probe_median_e2el_ms}, {@code probe_p99_e2el_ms}, {@code probe_max_e2el_ms}). */
    public record VllmE2el(double medianMs, double p99Ms, double maxMs) {}

    // numpy's percentile 100 is the largest value
    private static final List<Double> VLLM_PERCENTILES = List.of(99.0, 100.0);

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
                        .toList(),
                probes.completed() == 0 ? Optional.empty() : Optional.of(vllmE2el(probes)));
    }

    private static VllmE2el vllmE2el(MetricsAccumulator probes) {
        LatencyStats e2el = probes.stats(Metric.E2EL, VLLM_PERCENTILES).latency();
        return new VllmE2el(
                e2el.medianMs(),
                e2el.percentiles().get(0).valueMs(),
                e2el.percentiles().get(1).valueMs());
    }
}
