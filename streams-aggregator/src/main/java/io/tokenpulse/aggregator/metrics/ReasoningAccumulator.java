package io.tokenpulse.aggregator.metrics;

import java.util.Optional;

/**
 * A run's reasoning figures (extension), gathered from its successful requests beside the
 * {@link MetricsAccumulator}: the time to first output token of every request whose answer started,
 * and the output tokens split into thinking and answer. Not serialized: only the run's scoring needs
 * it, and the scoring reads every stored request again. Mutable, not thread-safe.
 *
 * @see "METRICS.md, Per-request values: row time to first output token"
 */
public final class ReasoningAccumulator {

    private final LatencyDistribution ttfo = new LatencyDistribution(MetricsAccumulator.DEFAULT_EXACT_LIMIT);
    private long requests;
    private long reasoningTokens;
    private long outputTokens;

    /** Adds one finished request; a failure adds nothing, as in the run's other figures. */
    public void add(RequestValues request, RequestReasoning reasoning) {
        if (!request.success()) {
            return;
        }
        outputTokens += request.outputTokens();
        reasoning.ttfoNs().ifPresent(ttfo::add);
        if (reasoning.thought()) {
            requests++;
            reasoningTokens += reasoning.reasoningTokens().orElse(0);
        }
    }

    /** The run's reasoning figures; empty when no successful request thought, so other runs show none. */
    public Optional<ReasoningResult> result(MetricPercentiles percentiles) {
        if (requests == 0) {
            return Optional.empty();
        }
        return Optional.of(new ReasoningResult(
                requests,
                reasoningTokens,
                Math.max(0, outputTokens - reasoningTokens),
                ttfo.stats(percentiles.percentiles())));
    }
}
