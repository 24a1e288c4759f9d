package io.tokenpulse.cli;

import io.tokenpulse.aggregator.metrics.GoodputSlo;
import io.tokenpulse.aggregator.metrics.MetricPercentiles;
import io.tokenpulse.aggregator.metrics.PercentileMetrics;
import java.util.List;
import picocli.CommandLine.Option;

/** vLLM's flags that choose what the report shows: percentile metrics, percentiles, goodput SLOs. */
final class ReportingOptions {

    @Option(
            names = "--percentile-metrics",
            defaultValue = "ttft,tpot,itl",
            description =
                    "Comma-separated metrics to report percentiles for: ttft, tpot, itl, e2el, token_latency (default: ${DEFAULT-VALUE}).")
    String percentileMetrics;

    @Option(
            names = "--metric-percentiles",
            defaultValue = "99",
            description = "Comma-separated percentiles for the selected metrics (default: ${DEFAULT-VALUE}).")
    String metricPercentiles;

    @Option(
            names = "--goodput",
            arity = "1..*",
            paramLabel = "KEY:VALUE",
            description = "Service level objectives for goodput as KEY:VALUE pairs in ms; keys ttft, tpot, e2el.")
    List<String> goodput;

    /** Parsed here so that a typo fails before the run, not after it. */
    GoodputSlo validate() {
        try {
            PercentileMetrics.parse(percentileMetrics);
            MetricPercentiles.parse(metricPercentiles);
            return goodput == null ? GoodputSlo.NONE : GoodputSlo.parse(goodput);
        } catch (IllegalArgumentException e) {
            throw UserError.usage(e.getMessage());
        }
    }

    /** The --goodput pairs as RunStarted carries them, or null. */
    String goodputText() {
        return goodput == null ? null : String.join(" ", goodput);
    }
}
