package io.tokenpulse.aggregator.metrics;

import java.util.List;

/**
 * The run's figures over its steady plateau only: the requests that were sent and ended inside it.
 *
 * @param window       the plateau
 * @param completed    successful requests wholly inside it
 * @param outputTokens their output tokens
 * @param metrics      the selected metrics over them, in the run's order
 * @see "docs/metrics.md, TokenPulse's own metrics: row steady state"
 */
public record SteadyStateResult(SteadyState window, long completed, long outputTokens, List<MetricStats> metrics) {

    public SteadyStateResult {
        metrics = List.copyOf(metrics);
    }

    /** completed / the plateau's length, per second. */
    public double requestThroughput() {
        return completed / window.seconds();
    }

    /** output tokens / the plateau's length, per second. */
    public double outputThroughput() {
        return outputTokens / window.seconds();
    }
}
