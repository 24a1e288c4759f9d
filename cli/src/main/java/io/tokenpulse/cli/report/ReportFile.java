package io.tokenpulse.cli.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.tokenpulse.aggregator.report.BenchResult;
import io.tokenpulse.aggregator.report.ResultReader;
import io.tokenpulse.aggregator.results.StoredWindows;
import io.tokenpulse.charts.RunChart;
import io.tokenpulse.runner.Pipeline;
import io.tokenpulse.runner.UserError;
import io.tokenpulse.runner.sweep.SweepFile;
import io.tokenpulse.schemas.avro.RequestMetrics;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The HTML report ({@link HtmlReport}) of a stored run, a result file or a sweep folder, written to
 * a file. Shared by {@code report} and {@code bench --report}.
 */
public final class ReportFile {
    private ReportFile() {}

    /**
     * Checks before any run or connection that the file can be written, so a typo fails at once.
     *
     * @throws UserError (usage) when the name does not end in .html or its folder does not exist
     */
    public static Path checked(String flag, String file) {
        Path path = Path.of(file).toAbsolutePath();
        if (!path.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".html")) {
            throw UserError.usage(flag + " must name a .html file, got " + file);
        }
        if (!Files.isDirectory(path.getParent())) {
            throw UserError.usage(flag + " " + file + ": folder " + path.getParent() + " does not exist");
        }
        return path;
    }

    /**
     * A stored run's page: its result, its windows from the window-metrics topic, its requests'
     * timeline, and its requests scored by every tool's definitions.
     */
    public static String storedRun(Pipeline pipeline, String runId, ScoredRun run, Duration wait) {
        StoredWindows windows;
        try {
            windows = StoredWindows.read(pipeline.topics(), pipeline.clientProperties(), runId, wait);
        } catch (IllegalArgumentException e) {
            throw UserError.failure(e.getMessage());
        }
        Optional<byte[]> png = windows.windows().isEmpty()
                ? Optional.empty()
                : Optional.of(RunChart.png(windows.windows(), windows.summary(), RunChart.DEFAULT_SIZE));
        return HtmlReport.run(new HtmlReport.Run(
                "TokenPulse run " + runId,
                run.result(),
                png,
                "No window metrics stored for run " + runId + " in topic "
                        + pipeline.topics().windowMetrics().name() + ".",
                timeline(run.requests()),
                Map.copyOf(run.summary().getErrors()),
                DefinitionsSection.of(runId, run)));
    }

    /** The requests by send time, in s from the first one sent. */
    static List<HtmlReport.Request> timeline(List<RequestMetrics> requests) {
        List<RequestMetrics> sorted = new ArrayList<>(requests);
        sorted.sort(Comparator.comparingLong(RequestMetrics::getSentEpochNs));
        List<HtmlReport.Request> timeline = new ArrayList<>();
        if (sorted.isEmpty()) {
            return timeline;
        }
        long origin = sorted.get(0).getSentEpochNs();
        for (RequestMetrics request : sorted) {
            double start = (request.getSentEpochNs() - origin) / 1e9;
            double first = request.getTtftNs() == null ? Double.NaN : start + request.getTtftNs() / 1e9;
            double end = request.getE2elNs() == null ? start : start + request.getE2elNs() / 1e9;
            timeline.add(new HtmlReport.Request(start, first, end));
        }
        return timeline;
    }

    /** A vLLM or TokenPulse result file's page (the last result of an appended file). */
    public static String resultFile(Path file) {
        List<JsonNode> objects = ResultFiles.objects(file);
        JsonNode result = objects.get(objects.size() - 1);
        if (!result.has("completed")) {
            throw UserError.usage(file + ": report reads vLLM's or TokenPulse's result files (key completed);"
                    + " for GuideLLM's or AIPerf's use tokenpulse compare");
        }
        return HtmlReport.run(run(file.getFileName().toString(), ResultReader.read(result)));
    }

    private static HtmlReport.Run run(String name, BenchResult result) {
        return new HtmlReport.Run(
                "TokenPulse result " + name,
                result,
                Optional.empty(),
                "Not available from a result file: the window metrics are in Kafka's window-metrics topic"
                        + " (use report --run-id ID for a stored run).",
                List.of(),
                Map.of());
    }

    /**
     * A sweep folder's page: {@code DIR/sweep.json} lists the points ({@code name}, {@code params},
     * {@code result} relative to DIR, {@code status}); each point's result is a vLLM-format file.
     */
    public static String sweep(Path dir) {
        Path index = dir.resolve("sweep.json");
        if (!Files.isRegularFile(index)) {
            throw UserError.usage(
                    "--sweep " + dir + ": no sweep.json in it; expected the folder tokenpulse sweep wrote");
        }
        JsonNode sweep = ResultFiles.objects(index).get(0);
        if (!sweep.path("points").isArray()) {
            throw UserError.usage(index + ": no \"points\" list; expected the sweep.json tokenpulse sweep writes");
        }
        List<String> swept = new ArrayList<>();
        sweep.path("swept").forEach(flag -> swept.add(flag.asText()));
        List<HtmlReport.Point> points = new ArrayList<>();
        for (JsonNode point : sweep.get("points")) {
            String name = point.path("name").asText("?");
            JsonNode params = point.path("params");
            String status = point.path("status").asText("");
            Optional<String> verdict = verdict(point);
            Path file =
                    point.hasNonNull("result") ? dir.resolve(point.get("result").asText()) : null;
            if (file == null || !Files.isRegularFile(file)) {
                points.add(new HtmlReport.Point(
                        name, params, Optional.empty(), "no result file (status " + status + ")", verdict));
            } else {
                List<JsonNode> objects = ResultFiles.objects(file);
                points.add(new HtmlReport.Point(
                        name,
                        params,
                        Optional.of(run(name, ResultReader.read(objects.get(objects.size() - 1)))),
                        status,
                        verdict));
            }
        }
        JsonNode search = sweep.path("search").path("summary");
        return HtmlReport.sweep(
                sweep.path("sweep_id").asText(dir.getFileName().toString()),
                swept,
                points,
                search.isTextual() ? Optional.of(search.asText()) : Optional.empty());
    }

    /** A search's verdict on a point as sweep.json has it ({@code slo_met}, {@code slo_miss}); empty in a grid. */
    private static Optional<String> verdict(JsonNode point) {
        if (!point.path("slo_met").isBoolean()) {
            return Optional.empty();
        }
        return Optional.of(SweepFile.Entry.verdict(
                point.get("slo_met").asBoolean(), point.path("slo_miss").asText("?")));
    }

    public static void write(Path output, String html, PrintStream out) {
        try {
            Files.writeString(output, html, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw UserError.failure("cannot write the report to " + output + ": " + e.getMessage());
        }
        out.println("Report saved to " + output);
    }
}
