package io.tokenpulse.cli.report;

import io.tokenpulse.charts.RunChart;
import io.tokenpulse.runner.BenchRun;
import io.tokenpulse.runner.ClientReport;
import io.tokenpulse.runner.Pipeline;
import io.tokenpulse.runner.RunPlan;
import io.tokenpulse.runner.RunResult;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What {@code bench} prints and saves after a run: vLLM's block and the client's lines (and the result
 * file when asked), the chart, the HTML report, and a note when the summary did not come.
 *
 * @param report whether and where to save the result file
 * @param chart where --save-chart writes the run's PNG chart, or null
 * @param html where --report writes the run's HTML report, or null
 * @param reachingFlags the flags that reach the run's cluster again, for the commands printed after the block
 */
public record RunOutput(RunReport.ResultOptions report, Path chart, Path html, String reachingFlags) {

    /**
     * Prints and saves {@code result} of {@code plan}, run on {@code pipeline}.
     *
     * @param serverInProcess whether the server ran in this process (--simulate): its CPU is then the client's
     */
    public void print(RunResult result, RunPlan plan, boolean serverInProcess, Pipeline pipeline, PrintStream out)
            throws IOException, InterruptedException {
        String runId = plan.load().runId();
        RunReport.print(
                result.summary(),
                result.requests(),
                report,
                Optional.of(ClientReport.of(result, plan.load().target().baseUrl(), serverInProcess)),
                out);
        if (chart != null) {
            ChartFile.save(pipeline, runId, chart, RunChart.DEFAULT_SIZE, BenchRun.CHART_WAIT, out);
        }
        if (html != null) {
            ScoredRun scored = new ScoredRun(result.summary(), result.requests());
            ReportFile.write(html, ReportFile.storedRun(pipeline, runId, scored, BenchRun.CHART_WAIT), out);
        }
        out.print(RunPointers.after(runId, reachingFlags));
        if (result.noSummary().isPresent()) {
            System.err.println("bench: " + result.noSummary().get()
                    + "; the result above was scored from what the aggregator stored");
        }
    }
}
