package io.tokenpulse.cli.options;

import io.tokenpulse.aggregator.metrics.GoodputSlo;
import io.tokenpulse.aggregator.metrics.MetricPercentiles;
import io.tokenpulse.aggregator.metrics.PercentileMetrics;
import io.tokenpulse.producer.LoadSettings;
import io.tokenpulse.runner.UserError;
import io.tokenpulse.schemas.python.PythonFloat;
import io.tokenpulse.schemas.task.PoolingBackends;
import java.util.List;
import picocli.CommandLine.Option;

/** vLLM's flags that choose what the report shows: percentile metrics, percentiles, goodput SLOs. */
public final class ReportingOptions {

    @Option(
            names = "--percentile-metrics",
            defaultValue = GENERATION_DEFAULT,
            description =
                    "Comma-separated metrics to report percentiles for: ttft, tpot, itl, e2el, token_latency, client_queue_time (with --max-concurrency), e2el_including_client_queue (with --max-concurrency and a finite --request-rate) (default: ${DEFAULT-VALUE}; e2el for the pooling backends openai-embeddings, vllm-rerank, vllm-score). A reasoning run's TTFO is reported by itself.")
    String percentileMetrics;

    private static final String GENERATION_DEFAULT = "ttft,tpot,itl";
    /** vLLM's default for a pooling backend: a run without output tokens has E2EL alone. */
    private static final String POOLING_DEFAULT = "e2el";

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

    private GoodputSlo slo;
    private PercentileMetrics metrics;
    private MetricPercentiles percentiles;

    /**
     * Takes vLLM's pooling default ({@code e2el}) for a pooling backend's run when --percentile-metrics
     * kept the generation default; call before {@link #validate}.
     */
    public void defaultFor(String backend) {
        if (PoolingBackends.contains(backend) && GENERATION_DEFAULT.equals(percentileMetrics)) {
            percentileMetrics = POOLING_DEFAULT;
        }
    }

    /** Parses the options, once: a typo fails before the run, not after it. */
    public GoodputSlo validate() {
        if (slo == null) {
            try {
                metrics = PercentileMetrics.parse(percentileMetrics);
                percentiles = MetricPercentiles.parse(metricPercentiles);
                slo = goodput == null ? GoodputSlo.NONE : GoodputSlo.parse(goodput);
            } catch (IllegalArgumentException e) {
                throw UserError.usage(e.getMessage());
            }
        }
        return slo;
    }

    /**
     * Refuses options whose result would lack the {@code percentile} of one of {@code metrics} (sweep's
     * --slo reads {@code p99_ttft_ms} and {@code p99_itl_ms}), with one line saying what to keep.
     */
    public void require(List<String> needed, double percentile) {
        validate();
        for (String metric : needed) {
            if (!metrics.keys().contains(metric) || !percentiles.percentiles().contains(percentile)) {
                throw UserError.usage(
                        "--slo reads the P" + PythonFloat.intOrRepr(percentile) + " of " + metric + ": keep "
                                + metric + " in --percentile-metrics and " + PythonFloat.intOrRepr(percentile)
                                + " in --metric-percentiles");
            }
        }
    }

    /** What RunStarted carries: the options as written, and as parsed by {@link #validate}. */
    public LoadSettings.Reporting runReporting(String configJson) {
        validate();
        return new LoadSettings.Reporting(
                percentileMetrics,
                metricPercentiles,
                goodput == null ? null : String.join(" ", goodput),
                configJson,
                metrics.keys(),
                percentiles.percentiles(),
                slo.asMap());
    }
}
