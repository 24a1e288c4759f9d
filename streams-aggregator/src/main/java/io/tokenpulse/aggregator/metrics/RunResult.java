package io.tokenpulse.aggregator.metrics;

import java.util.List;
import java.util.OptionalDouble;

/**
 * The run values of docs/metrics.md and the statistics of the selected metrics: what vLLM prints in its
 * result block and saves in its result file. Throughputs are per second; latencies in ms.
 *
 * @param durationNs             benchmark duration: schedule start to the last request's end
 * @param completed              successful requests
 * @param failed                 failed requests
 * @param totalInputTokens       prompt tokens of successful requests
 * @param totalOutputTokens      output tokens of successful requests
 * @param requestThroughput      completed / duration
 * @param requestGoodput         requests meeting every SLO / duration; empty without --goodput
 * @param outputThroughput       total output tokens / duration
 * @param totalTokenThroughput   (total input + total output tokens) / duration
 * @param maxOutputTokensPerS    largest count of streamed events in a 1-second bucket
 * @param maxConcurrentRequests  largest number of successful requests in flight in a 1-second bucket
 * @param rtfx                   vLLM's inverse real-time factor: seconds of audio the successful requests sent /
 *                               duration; 0 for a run without audio
 * @param itlExact               false when ITL statistics come from the sketch (relative error <= 0.1 %)
 * @param metrics                statistics of the selected metrics, in vLLM's print order
 */
public record RunResult(
        long durationNs,
        long completed,
        long failed,
        long totalInputTokens,
        long totalOutputTokens,
        double requestThroughput,
        OptionalDouble requestGoodput,
        double outputThroughput,
        double totalTokenThroughput,
        double maxOutputTokensPerS,
        long maxConcurrentRequests,
        double rtfx,
        boolean itlExact,
        List<MetricStats> metrics) {

    private static final double NS_PER_SECOND = 1e9;

    public RunResult {
        if (durationNs <= 0) {
            throw new IllegalArgumentException("durationNs must be > 0, got " + durationNs
                    + ": a run lasts from its schedule start to its last request's end");
        }
        if (completed < 0 || failed < 0 || totalInputTokens < 0 || totalOutputTokens < 0 || maxConcurrentRequests < 0) {
            throw new IllegalArgumentException("counts must be >= 0");
        }
        for (double rate : new double[] {
            requestThroughput,
            requestGoodput.orElse(0),
            outputThroughput,
            totalTokenThroughput,
            maxOutputTokensPerS,
            rtfx
        }) {
            if (!(rate >= 0) || Double.isInfinite(rate)) {
                throw new IllegalArgumentException("throughputs must be finite and >= 0, got " + rate);
            }
        }
        metrics = List.copyOf(metrics);
    }

    /**
     * Computes the run values from an accumulator holding every request of the run.
     *
     * @param durationNs from the start of the arrival schedule until the last request finished
     * @see "docs/metrics.md, Run values: rows benchmark duration, successful / failed requests, total input
     *     tokens, total generated tokens, request throughput, output token throughput, total token
     *     throughput, request goodput, peak output token throughput, peak concurrent requests, RTFx"
     */
    public static RunResult of(
            MetricsAccumulator run, long durationNs, PercentileMetrics selection, MetricPercentiles percentiles) {
        if (durationNs <= 0) {
            throw new IllegalArgumentException("durationNs must be > 0, got " + durationNs);
        }
        double seconds = durationNs / NS_PER_SECOND;
        OptionalDouble goodput =
                run.goodput().enabled() ? OptionalDouble.of(run.goodCompleted() / seconds) : OptionalDouble.empty();
        List<MetricStats> stats = selection.metrics().stream()
                .map(metric -> run.stats(metric, percentiles.percentiles()))
                .toList();
        return new RunResult(
                durationNs,
                run.completed(),
                run.failed(),
                run.totalInputTokens(),
                run.totalOutputTokens(),
                run.completed() / seconds,
                goodput,
                run.totalOutputTokens() / seconds,
                (run.totalInputTokens() + run.totalOutputTokens()) / seconds,
                run.peakEventsPerSecond(),
                run.peakConcurrentRequests(),
                run.totalInputAudioSeconds() / seconds,
                run.isExact(Metric.ITL),
                stats);
    }

    /** The duration in seconds, as vLLM prints and saves it. */
    public double durationSeconds() {
        return durationNs / NS_PER_SECOND;
    }
}
