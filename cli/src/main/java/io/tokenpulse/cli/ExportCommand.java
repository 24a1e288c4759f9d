package io.tokenpulse.cli;

import io.tokenpulse.aggregator.results.StoredChunks;
import io.tokenpulse.aggregator.results.StoredRun;
import io.tokenpulse.aggregator.results.StoredWindows;
import io.tokenpulse.cli.options.StoredRunOptions;
import io.tokenpulse.cli.report.ExportFormat;
import io.tokenpulse.cli.report.ScoredRun;
import io.tokenpulse.runner.Pipeline;
import io.tokenpulse.runner.UserError;
import io.tokenpulse.schemas.PipelineRole;
import io.tokenpulse.schemas.avro.Chunk;
import io.tokenpulse.schemas.avro.RequestMetrics;
import io.tokenpulse.schemas.avro.ServerMetric;
import io.tokenpulse.schemas.avro.WindowMetrics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code tokenpulse export --run-id ID --format parquet|csv --output DIR}: a stored run's chunk
 * events, request metrics, windows and server scrapes as files for analysts (docs/export.md), read
 * from its topics as {@code replay} reads it, with the same {@code --allow-incomplete} rule.
 */
@Command(
        name = "export",
        sortOptions = false,
        mixinStandardHelpOptions = true,
        description =
                "Write a stored run's chunk events, request metrics, windows and server scrapes as Parquet or CSV files, one per kind (docs/export.md).")
final class ExportCommand implements Callable<Integer> {

    @Option(names = "--run-id", required = true, description = "The run to export (as given to or printed by bench).")
    String runId;

    @Option(
            names = "--format",
            defaultValue = "parquet",
            paramLabel = "parquet|csv",
            description = "File format (default: ${DEFAULT-VALUE}).")
    String format;

    @Option(
            names = "--output",
            required = true,
            paramLabel = "DIR",
            description = "Folder to write the files to (made if missing; files of the same names are replaced).")
    Path output;

    @Option(
            names = "--allow-incomplete",
            description =
                    "Export a run that is not complete (a shard's RunFinished or request metrics missing) as far as it is stored; the command says what is missing.")
    boolean allowIncomplete;

    @Mixin
    StoredRunOptions storedRun;

    @Override
    public Integer call() throws IOException {
        // Everything that can be checked without Kafka first, so a typo fails at once.
        ExportFormat parsed;
        try {
            parsed = ExportFormat.parse(format);
        } catch (IllegalArgumentException e) {
            throw UserError.usage(e.getMessage());
        }
        if (Files.exists(output) && !Files.isDirectory(output)) {
            throw UserError.usage("--output " + output + " is a file; give a folder to write the run's files to");
        }
        Duration waitFor = storedRun.waitFor();
        List<String> written = new ArrayList<>();
        String counts;
        String incomplete;
        try (Pipeline pipeline = storedRun.connect(PipelineRole.EXPORT)) {
            StoredRun run = ScoredRun.stored(pipeline, runId, waitFor, allowIncomplete);
            List<Chunk> chunks = StoredChunks.read(pipeline.topics(), pipeline.clientProperties(), runId, waitFor);
            // A finished run's windows settle soon after its summary; an incomplete one's are read up to --wait-s.
            List<WindowMetrics> windows = StoredWindows.read(
                            pipeline.topics(), pipeline.clientProperties(), runId, waitFor)
                    .windows();
            Files.createDirectories(output);
            written.add(file(parsed.write(output, "chunks", Chunk.getClassSchema(), chunks)));
            written.add(file(parsed.write(output, "request-metrics", RequestMetrics.getClassSchema(), run.requests())));
            written.add(file(parsed.write(output, "window-metrics", WindowMetrics.getClassSchema(), windows)));
            written.add(
                    file(parsed.write(output, "server-metrics", ServerMetric.getClassSchema(), run.serverMetrics())));
            counts = run.requests().size() + " request metrics, " + chunks.size() + " chunk events, " + windows.size()
                    + " windows, " + run.serverMetrics().size() + " server-metric records";
            incomplete =
                    run.missing().map(m -> " (incomplete: missing " + m + ")").orElse("");
        }
        System.out.println("Exported run " + runId + incomplete + ": " + counts + " to " + output + ": "
                + String.join(", ", written));
        return 0;
    }

    private static String file(Path path) {
        return path.getFileName().toString();
    }
}
