package io.tokenpulse.cli;

import io.tokenpulse.cli.options.StoredRunOptions;
import io.tokenpulse.cli.report.HtmlReport;
import io.tokenpulse.cli.report.ReportFile;
import io.tokenpulse.cli.report.ScoredRun;
import io.tokenpulse.runner.Pipeline;
import io.tokenpulse.runner.UserError;
import io.tokenpulse.schemas.PipelineRole;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code tokenpulse report --run-id ID | --sweep DIR | RESULT.json --output FILE.html}: one
 * self-contained HTML page of a run or a sweep ({@link HtmlReport}); it opens without a network.
 */
@Command(
        name = "report",
        sortOptions = false,
        mixinStandardHelpOptions = true,
        description =
                "A self-contained HTML report (summary, configuration, charts, timeline, failures) of a stored run, a result file or a sweep folder.")
final class ReportCommand implements Callable<Integer> {

    @Parameters(
            arity = "0..1",
            paramLabel = "RESULT.json",
            description = "A vLLM or TokenPulse result file (--save-result; --save-detailed adds the histograms).")
    Path resultFile;

    @Option(names = "--run-id", paramLabel = "ID", description = "A stored run, read from Kafka as replay does.")
    String runId;

    @Option(names = "--sweep", paramLabel = "DIR", description = "A sweep's folder (its sweep.json and points/).")
    Path sweepDir;

    @Option(names = "--output", required = true, paramLabel = "FILE.html", description = "Where to write the page.")
    String output;

    @Mixin
    StoredRunOptions storedRun;

    @Override
    public Integer call() {
        int sources = (resultFile != null ? 1 : 0) + (runId != null ? 1 : 0) + (sweepDir != null ? 1 : 0);
        if (sources != 1) {
            throw UserError.usage("give exactly one of RESULT.json, --run-id ID or --sweep DIR, got " + sources);
        }
        Duration waitFor = storedRun.waitFor();
        Path file = ReportFile.checked("--output", output);
        String html;
        if (resultFile != null) {
            html = ReportFile.resultFile(resultFile);
        } else if (sweepDir != null) {
            html = ReportFile.sweep(sweepDir);
        } else {
            try (Pipeline pipeline = storedRun.connect(PipelineRole.REPORT)) {
                ScoredRun run = ScoredRun.read(pipeline, runId, waitFor, false, UnaryOperator.identity());
                html = ReportFile.storedRun(pipeline, runId, run, waitFor);
            }
        }
        ReportFile.write(file, html, System.out);
        return 0;
    }
}
