package io.tokenpulse.cli;

import io.tokenpulse.charts.RunChart;
import io.tokenpulse.cli.options.KafkaOptions;
import io.tokenpulse.cli.report.ChartFile;
import io.tokenpulse.runner.Pipeline;
import io.tokenpulse.runner.UserError;
import io.tokenpulse.schemas.PipelineRole;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code tokenpulse chart --run-id ID --output FILE.png}: draws a stored run's window metrics (TTFT,
 * TPOT, ITL, E2EL P50/P99, throughput, request rate over run time) as a PNG ({@link RunChart}).
 */
@Command(
        name = "chart",
        sortOptions = false,
        mixinStandardHelpOptions = true,
        description =
                "Draw a stored run's window metrics (latency percentiles, throughput, request rate over time) as a PNG.")
final class ChartCommand implements Callable<Integer> {

    @Option(names = "--run-id", required = true, description = "The run to chart (as given to or printed by bench).")
    String runId;

    @Option(names = "--output", required = true, paramLabel = "FILE.png", description = "Where to write the PNG.")
    String output;

    @Option(
            names = "--size",
            defaultValue = "1500x800",
            paramLabel = "WIDTHxHEIGHT",
            description = "Image size in pixels (default: ${DEFAULT-VALUE}).")
    String size;

    @Option(
            names = "--wait-s",
            defaultValue = "10",
            description =
                    "How long to wait for the windows of a run that has not finished yet, in s (default: ${DEFAULT-VALUE}).")
    int waitS;

    @Mixin
    KafkaOptions kafka;

    @Override
    public Integer call() {
        // Checked before connecting, so a typo fails at once.
        if (waitS < 0) {
            throw UserError.usage("--wait-s must be >= 0, got " + waitS);
        }
        RunChart.Size parsed;
        try {
            parsed = RunChart.Size.parse(size);
        } catch (IllegalArgumentException e) {
            throw UserError.usage("--size: " + e.getMessage());
        }
        Path file = ChartFile.checked("--output", output);
        try (Pipeline pipeline = Pipeline.connect(kafka.settings(), PipelineRole.CHART)) {
            ChartFile.save(pipeline, runId, file, parsed, Duration.ofSeconds(waitS), System.out);
            return 0;
        }
    }
}
