package io.tokenpulse.cli.report;

import io.tokenpulse.aggregator.report.BlockExtensions;
import io.tokenpulse.aggregator.report.ConsoleReport;
import io.tokenpulse.aggregator.report.ModelResult;
import io.tokenpulse.aggregator.report.ResultFile;
import io.tokenpulse.aggregator.report.ResultJson;
import io.tokenpulse.aggregator.report.RunConfig;
import io.tokenpulse.aggregator.report.ServerLines;
import io.tokenpulse.aggregator.report.SummaryRecords;
import io.tokenpulse.aggregator.scoring.ServerScoring;
import io.tokenpulse.runner.ClientReport;
import io.tokenpulse.schemas.avro.RequestMetrics;
import io.tokenpulse.schemas.avro.RunSummary;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A run's report from its summary record: vLLM's {@code Serving Benchmark Result} block on the
 * console and, when asked, its result file. Shared by {@code bench} and {@code replay}.
 */
public final class RunReport {

    /** --save-result and friends, and --vllm-block. */
    public record ResultOptions(
            boolean save,
            boolean detailed,
            boolean append,
            Optional<Path> dir,
            Optional<String> filename,
            Map<String, String> metadata,
            Optional<String> label,
            ConsoleReport.Layout block) {

        /** These options printing the block in {@code layout}. */
        public ResultOptions withBlock(ConsoleReport.Layout layout) {
            return new ResultOptions(save, detailed, append, dir, filename, metadata, label, layout);
        }

        /**
         * These options writing {@code name} when no --result-filename was given: {@code replay}'s own
         * default, so that it never writes over the file {@code bench} saved for the same run.
         */
        public ResultOptions withDefaultFilename(String name) {
            return filename.isPresent()
                    ? this
                    : new ResultOptions(save, detailed, append, dir, Optional.of(name), metadata, label, block);
        }

        /**
         * From the flags as given; a malformed --metadata pair, or a result directory that cannot be
         * written when a file is asked for, fails with a one-line message (before the run, not after it).
         */
        public static ResultOptions of(
                boolean save,
                boolean detailed,
                boolean append,
                String dir,
                String filename,
                List<String> metadata,
                String label) {
            if (label != null && (label.isBlank() || label.contains("/"))) {
                throw new IllegalArgumentException(
                        "--label must be a non-empty file name prefix without '/', got '" + label + "'");
            }
            ResultOptions options = new ResultOptions(
                    save,
                    detailed,
                    append,
                    Optional.ofNullable(dir).map(Path::of),
                    Optional.ofNullable(filename),
                    ResultJson.parseMetadata(metadata == null ? List.of() : metadata),
                    Optional.ofNullable(label),
                    ConsoleReport.Layout.SEED);
            if (options.anyFile()) {
                checkWritable(options.dir());
            }
            return options;
        }

        private static void checkWritable(Optional<Path> dir) {
            Path target = dir.orElse(Path.of("")).toAbsolutePath();
            String flag = dir.isPresent() ? "--result-dir " + dir.get() : "the current directory " + target;
            try {
                // vLLM creates --result-dir too, but only when it saves, after the run
                Files.createDirectories(target);
            } catch (IOException e) {
                throw new IllegalArgumentException(
                        flag + " cannot be created (" + describe(e) + "); pass a --result-dir you can write to");
            }
            if (!Files.isWritable(target)) {
                throw new IllegalArgumentException(flag + " is not writable; pass a --result-dir you can write to");
            }
        }

        private static String describe(IOException e) {
            if (e instanceof FileAlreadyExistsException) {
                return "a file of that name exists";
            }
            if (e instanceof AccessDeniedException) {
                return "permission denied";
            }
            return e instanceof FileSystemException fs && fs.getReason() != null
                    ? fs.getReason()
                    : String.valueOf(e.getMessage());
        }

        boolean anyFile() {
            return save || append || detailed;
        }
    }

    private RunReport() {}

    /**
     * Prints the block, the failures by reason, a warning about undelivered records and, for a run
     * measured here, the client's own figures (with their warning lines, if any); then saves the result
     * file when asked.
     *
     * @param requests the run's request metrics in request-index order; used only with --save-detailed
     * @param client   what this process measured about itself ({@code bench}), empty for a stored run
     */
    public static void print(
            RunSummary summary,
            List<RequestMetrics> requests,
            ResultOptions options,
            Optional<ClientReport> client,
            PrintStream out)
            throws IOException {
        RunConfig config = SummaryRecords.config(summary);
        var result = SummaryRecords.result(summary);
        ConsoleReport console = new ConsoleReport(options.block());
        console.print(
                config,
                result,
                new BlockExtensions(
                        SummaryRecords.reasoning(summary),
                        SummaryRecords.prefixCache(summary),
                        SummaryRecords.probes(summary)),
                out);
        List<ModelResult> perModel = SummaryRecords.perModel(summary);
        console.printPerModel(perModel, out);
        console.printPerTurn(SummaryRecords.perTurn(summary), out);
        console.printAfterBlock(
                SummaryRecords.steadyState(summary),
                SummaryRecords.steadyStateAbsent(summary),
                SummaryRecords.probes(summary),
                out);
        out.print(SummaryRecords.shards(summary).lines());
        if (!summary.getErrors().isEmpty()) {
            out.println("Failures by reason:");
            summary.getErrors().forEach((reason, count) -> out.println("  " + count + " x " + reason));
        }
        ResultJson.Delivery delivery = SummaryRecords.delivery(summary);
        if (delivery.recordsNotDelivered() > 0) {
            out.println("Warning: " + delivery.recordsNotDelivered() + " records were not delivered to Kafka"
                    + (delivery.recordsNotDeliveredByReason().isEmpty()
                            ? ""
                            : " " + delivery.recordsNotDeliveredByReason())
                    + "; the figures above miss them.");
        }
        ResultJson.Completeness completeness = SummaryRecords.completeness(summary);
        if (completeness.interrupted()) {
            out.println("Warning: the run was interrupted; the figures above cover the " + summary.getNumPrompts()
                    + " requests sent before it stopped.");
        }
        if (completeness.incomplete() != null) {
            out.println("Warning: incomplete result, missing " + completeness.incomplete()
                    + "; the figures above cover what the aggregator stored.");
        }
        client.ifPresent(c -> out.print(c.lines()));
        // the summary's server section, from the scrapes of the server's /metrics
        Map<String, Double> server = ServerScoring.values(summary.getServer());
        out.print(ServerLines.of(server));
        if (options.anyFile()) {
            ResultJson json = SummaryRecords.resultJson(
                            summary,
                            requests,
                            options.metadata(),
                            options.label().orElse(null),
                            options.detailed())
                    .inLayout(options.block());
            if (client.isPresent()) {
                json = json.withClientCpu(client.get().cpu())
                        .withClientTiming(client.get().timing());
            }
            if (!server.isEmpty()) {
                json = json.withServerMetrics(server);
            }
            Path file = ResultFile.path(config, options.label().orElse(null), options.dir(), options.filename());
            ResultFile.write(file, json, options.append());
            out.println("Result saved to " + file);
        }
    }
}
