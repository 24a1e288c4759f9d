package io.tokenpulse.cli.options;

import io.tokenpulse.cli.report.ChartFile;
import io.tokenpulse.cli.report.ReportFile;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --save-chart} and {@code --report}: the files drawn and written after a run. */
public final class RunFileOptions {

    @Option(
            names = "--save-chart",
            paramLabel = "FILE.png",
            description =
                    "After the run, draw its window metrics (latency percentiles, throughput, request rate over time) as a PNG.")
    String saveChart;

    @Option(
            names = "--report",
            paramLabel = "FILE.html",
            description =
                    "After the run, write its self-contained HTML report (as tokenpulse report --run-id): summary, charts, timeline, failures.")
    String reportFile;

    /** Where --save-chart writes the run's PNG, checked; null without it. */
    public Path chart() {
        return saveChart == null ? null : ChartFile.checked("--save-chart", saveChart);
    }

    /** Where --report writes the run's HTML report, checked; null without it. */
    public Path html() {
        return reportFile == null ? null : ReportFile.checked("--report", reportFile);
    }
}
