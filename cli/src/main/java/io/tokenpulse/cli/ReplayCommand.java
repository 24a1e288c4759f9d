package io.tokenpulse.cli;

import io.tokenpulse.aggregator.metrics.GoodputSlo;
import io.tokenpulse.aggregator.metrics.MetricPercentiles;
import io.tokenpulse.aggregator.metrics.PercentileMetrics;
import io.tokenpulse.aggregator.report.ResultFile;
import io.tokenpulse.aggregator.report.SummaryRecords;
import io.tokenpulse.aggregator.scoring.RunScoring;
import io.tokenpulse.cli.options.ResultFileOptions;
import io.tokenpulse.cli.options.StoredRunOptions;
import io.tokenpulse.cli.report.RunReport;
import io.tokenpulse.cli.report.ScoredRun;
import io.tokenpulse.runner.Pipeline;
import io.tokenpulse.runner.UserError;
import io.tokenpulse.schemas.PipelineRole;
import io.tokenpulse.schemas.avro.RunSummary;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code tokenpulse replay --run-id ID}: scores a stored run again, from its records in Kafka, with
 * other {@code --goodput}, {@code --percentile-metrics} or {@code --metric-percentiles}, and prints
 * and saves the same block and JSON as {@code bench}. The scoring is the topology's own
 * ({@link RunScoring}); only the options differ.
 */
@Command(
        name = "replay",
        sortOptions = false,
        mixinStandardHelpOptions = true,
        description = "Re-score a stored run with other goodput SLOs or percentiles; prints and saves what bench does"
                + " (--save-result writes <bench's file name>-replay.json, never bench's own file).")
final class ReplayCommand implements Callable<Integer> {

    @Option(names = "--run-id", required = true, description = "The run to re-score (as given to or printed by bench).")
    String runId;

    @Option(
            names = "--percentile-metrics",
            description =
                    "Comma-separated metrics to report percentiles for: ttft, tpot, itl, e2el, token_latency (default: the run's). A reasoning run's TTFO is reported by itself.")
    String percentileMetrics;

    @Option(
            names = "--metric-percentiles",
            description = "Comma-separated percentiles for the selected metrics (default: the run's).")
    String metricPercentiles;

    @Option(
            names = "--goodput",
            arity = "1..*",
            paramLabel = "KEY:VALUE",
            description =
                    "Service level objectives for goodput as KEY:VALUE pairs in ms; keys ttft, tpot, e2el (default: the run's).")
    List<String> goodput;

    @Option(
            names = "--allow-incomplete",
            description =
                    "Score a run that is not complete (a shard's RunFinished or request metrics missing, no summary) from what is stored; the block and the result file say what is missing.")
    boolean allowIncomplete;

    @Mixin
    ResultFileOptions resultFile;

    @Mixin
    StoredRunOptions storedRun;

    @Override
    public Integer call() throws Exception {
        PrintStream out = System.out;
        Duration waitFor = storedRun.waitFor();
        PercentileMetrics selection;
        MetricPercentiles percentiles;
        GoodputSlo slo;
        RunReport.ResultOptions report;
        // Checked before connecting, so a typo fails at once.
        try {
            selection = percentileMetrics == null ? null : PercentileMetrics.parse(percentileMetrics);
            percentiles = metricPercentiles == null ? null : MetricPercentiles.parse(metricPercentiles);
            slo = goodput == null ? null : GoodputSlo.parse(goodput);
            report = resultFile.toResultOptions();
        } catch (IllegalArgumentException e) {
            throw UserError.usage(e.getMessage());
        }
        try (Pipeline pipeline = storedRun.connect(PipelineRole.REPLAY)) {
            ScoredRun run = ScoredRun.read(
                    pipeline,
                    runId,
                    waitFor,
                    allowIncomplete,
                    stored -> new RunScoring.Options(
                            selection != null ? selection : stored.selection(),
                            percentiles != null ? percentiles : stored.percentiles(),
                            slo != null ? slo : stored.goodput()));
            RunReport.print(
                    run.summary(),
                    run.requests(),
                    report.withDefaultFilename(defaultName(run.summary(), report.label())),
                    Optional.empty(),
                    out);
            return 0;
        }
    }

    /**
     * bench's default result file name with {@code -replay} before {@code .json}: a replay never
     * writes over the (maybe detailed) file bench saved for the run unless told to by --result-filename.
     */
    static String defaultName(RunSummary summary, Optional<String> label) {
        String bench = ResultFile.defaultName(SummaryRecords.config(summary), label.orElse(null));
        return bench.substring(0, bench.length() - ".json".length()) + "-replay.json";
    }
}
