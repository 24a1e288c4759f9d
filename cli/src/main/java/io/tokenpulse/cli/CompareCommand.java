package io.tokenpulse.cli;

import io.tokenpulse.aggregator.definitions.DetailedTimings;
import io.tokenpulse.aggregator.definitions.StoredTimings;
import io.tokenpulse.aggregator.report.BenchResult;
import io.tokenpulse.cli.options.StoredRunOptions;
import io.tokenpulse.cli.options.TableOutputOption;
import io.tokenpulse.cli.report.CompareTable;
import io.tokenpulse.cli.report.DefinitionNotes;
import io.tokenpulse.cli.report.ExplainedDifferences;
import io.tokenpulse.cli.report.ResultFiles;
import io.tokenpulse.cli.report.ScoredRun;
import io.tokenpulse.runner.Pipeline;
import io.tokenpulse.runner.UserError;
import io.tokenpulse.schemas.PipelineRole;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code tokenpulse compare RESULT... [--run-id ID ...]}: one table in the columns of published vLLM comparison tables, a row per
 * result file (vLLM's, TokenPulse's, GuideLLM's, AIPerf's) or stored run, in the order given (files
 * first, then run ids); {@code --baseline N} adds each figure's change against row N. Under a markdown
 * table: where the tools' definitions differ ({@link DefinitionNotes}) and, with a TokenPulse run among
 * the rows, which differences from it the definitions explain ({@link ExplainedDifferences}).
 */
@Command(
        name = "compare",
        sortOptions = false,
        mixinStandardHelpOptions = true,
        description =
                "One table of several results (vLLM, TokenPulse, GuideLLM or AIPerf result files, stored runs): TTFT, TPOT, ITL, E2EL and throughput columns, as markdown, CSV or HTML.")
final class CompareCommand implements Callable<Integer> {

    @Parameters(
            arity = "0..*",
            paramLabel = "RESULT",
            description =
                    "Result files: vLLM's or TokenPulse's (--save-result), GuideLLM's benchmarks.json, AIPerf's profile_export_aiperf.json, inference-perf's summary_lifecycle_metrics.json.")
    List<Path> files = new ArrayList<>();

    @Option(
            names = "--run-id",
            paramLabel = "ID",
            description = "A stored run to add (repeatable), scored from Kafka as replay does; after the files.")
    List<String> runIds = new ArrayList<>();

    @Option(
            names = "--label",
            paramLabel = "L",
            description =
                    "Row labels in row order (repeatable; default: the file name, vLLM's label key, or the run id).")
    List<String> labels = new ArrayList<>();

    @Option(
            names = "--baseline",
            paramLabel = "N",
            description = "Add each figure's change relative to row N (1 = the first row).")
    Integer baseline;

    @Option(
            names = "--format",
            defaultValue = "md",
            paramLabel = "md|csv|html",
            description = "Table format (default: ${DEFAULT-VALUE}).")
    String format;

    @Mixin
    TableOutputOption output;

    @Mixin
    StoredRunOptions storedRun;

    @Override
    public Integer call() throws IOException {
        // Everything that can be checked without Kafka first, so a typo fails at once.
        CompareTable.Format parsed = CompareTable.Format.parse(format);
        if (files.isEmpty() && runIds.isEmpty()) {
            throw UserError.usage("give at least one result file or --run-id to compare");
        }
        Duration waitFor = storedRun.waitFor();
        output.validate();
        List<CompareTable.Row> rows = new ArrayList<>();
        List<DefinitionNotes.Tool> rowTools = new ArrayList<>();
        // the TokenPulse run the other rows are held against: the first stored run, else the first detailed file
        Optional<ExplainedDifferences.Reference> reference = Optional.empty();
        int referenceRow = -1;
        for (Path file : files) {
            for (ResultFiles.FileRow row : ResultFiles.read(file)) {
                if (reference.isEmpty() && row.detailed().isPresent()) {
                    reference = Optional.of(detailedReference(file, row));
                    referenceRow = rows.size();
                }
                rows.add(row.row());
                rowTools.add(row.tool());
            }
        }
        if (!runIds.isEmpty()) {
            try (Pipeline pipeline = storedRun.connect(PipelineRole.COMPARE)) {
                for (String runId : runIds) {
                    ScoredRun run = ScoredRun.read(pipeline, runId, waitFor, false, UnaryOperator.identity());
                    if (runId.equals(runIds.get(0)) && !run.requests().isEmpty()) {
                        // a stored run has its send times: it takes over from a detailed file
                        reference = Optional.of(new ExplainedDifferences.Reference(
                                "run " + runId,
                                StoredTimings.ofDuration(run.summary().getDurationNs(), run.requests()),
                                true));
                        referenceRow = rows.size();
                    }
                    rows.add(ResultFiles.row(runId, run.result()));
                    rowTools.add(DefinitionNotes.Tool.VLLM); // a stored run is scored by vLLM's definitions
                }
            }
        }
        if (labels.size() > rows.size()) {
            throw UserError.usage(
                    labels.size() + " --label values for " + rows.size() + " rows: give at most one per row");
        }
        for (int i = 0; i < labels.size(); i++) {
            rows.set(i, new CompareTable.Row(labels.get(i), rows.get(i).values()));
        }
        if (baseline != null && (baseline < 1 || baseline > rows.size())) {
            throw UserError.usage("--baseline must be a row number from 1 to " + rows.size() + ", got " + baseline);
        }
        String table = new CompareTable(rows, baseline == null ? OptionalInt.empty() : OptionalInt.of(baseline - 1))
                .render(parsed);
        // under a markdown table, a line per column the tools define differently (CSV stays one table)
        if (parsed == CompareTable.Format.MD) {
            table += DefinitionNotes.markdown(new LinkedHashSet<>(rowTools));
            if (reference.isPresent() && rows.size() > 1) {
                List<ExplainedDifferences.Peer> peers = new ArrayList<>();
                for (int i = 0; i < rows.size(); i++) {
                    if (i != referenceRow) {
                        peers.add(new ExplainedDifferences.Peer(rows.get(i), rowTools.get(i)));
                    }
                }
                table +=
                        ExplainedDifferences.markdown(reference.get(), ExplainedDifferences.of(reference.get(), peers));
            }
        }
        output.write(table, "Comparison");
        return 0;
    }

    /** A TokenPulse result file's --save-detailed lists as the run the other rows are held against. */
    private static ExplainedDifferences.Reference detailedReference(Path file, ResultFiles.FileRow row) {
        BenchResult.Requests lists = row.detailed().orElseThrow().requests();
        try {
            return new ExplainedDifferences.Reference(
                    file.getFileName().toString(),
                    DetailedTimings.of(
                            lists.ttftsS(), lists.itlsS(), lists.inputLens(), lists.outputLens(), lists.errors()),
                    false);
        } catch (IllegalArgumentException e) {
            throw UserError.usage(file + ": " + e.getMessage());
        }
    }
}
