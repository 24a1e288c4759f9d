package io.tokenpulse.cli.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tokenpulse.aggregator.report.BenchResult;
import io.tokenpulse.aggregator.report.BenchResult.Latency;
import io.tokenpulse.aggregator.report.BenchResult.Requests;
import io.tokenpulse.aggregator.report.ResultReader;
import io.tokenpulse.cli.report.CompareTable.Column;
import io.tokenpulse.runner.UserError;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Benchmark result files read as {@link BenchResult}s and shown as {@link CompareTable.Row}s: vLLM's (every version's keys, read by
 * {@link ResultReader}; also TokenPulse's, which has vLLM's keys, and {@code --append-result} files of
 * one JSON object per line), GuideLLM's {@code benchmarks.json} (one row per benchmark), AIPerf's
 * {@code profile_export_aiperf.json} and inference-perf's report ({@link InferencePerfReport}). A figure
 * the file does not have is NaN.
 */
public final class ResultFiles {
    static final String EXPECTED =
            "a result file of vLLM or TokenPulse (--save-result), GuideLLM (benchmarks.json), AIPerf (profile_export_aiperf.json)"
                    + " or inference-perf (summary_lifecycle_metrics.json)";

    private static final ObjectMapper JSON = new ObjectMapper();

    private ResultFiles() {}

    /** A result file read as JSON: its objects (one, or one per line of an appended file). */
    static List<JsonNode> objects(Path file) {
        if (!Files.isRegularFile(file)) {
            throw UserError.usage(file + ": no such file; expected " + EXPECTED);
        }
        List<JsonNode> objects = new ArrayList<>();
        try (MappingIterator<JsonNode> values = JSON.readerFor(JsonNode.class).readValues(file.toFile())) {
            while (values.hasNext()) {
                objects.add(values.next());
            }
        } catch (JsonProcessingException | RuntimeException e) {
            throw UserError.usage(file + ": not JSON (" + firstLine(e.getMessage()) + "); expected " + EXPECTED);
        } catch (IOException e) {
            throw UserError.usage(file + ": cannot be read (" + e.getMessage() + ")");
        }
        if (objects.isEmpty() || !objects.stream().allMatch(JsonNode::isObject)) {
            throw UserError.usage(file + ": not a JSON object; expected " + EXPECTED);
        }
        return objects;
    }

    private static String firstLine(String message) {
        return message == null ? "" : message.lines().findFirst().orElse("");
    }

    /**
     * One row of a result file and where it comes from.
     *
     * @param tool     the tool whose definitions made its figures
     * @param detailed the result, for TokenPulse's own file with the {@code --save-detailed} lists (a
     *     run {@code compare} can score by the other tools' definitions); empty otherwise
     */
    public record FileRow(CompareTable.Row row, DefinitionNotes.Tool tool, Optional<BenchResult> detailed) {}

    /** The rows of one file, labelled after the file (or vLLM's {@code label} key). */
    public static List<CompareTable.Row> rows(Path file) {
        return read(file).stream().map(FileRow::row).toList();
    }

    /** The rows of one file with their tools, labelled as {@link #rows}. */
    public static List<FileRow> read(Path file) {
        String name = file.getFileName().toString().replaceFirst("\\.json$", "");
        List<JsonNode> objects = objects(file);
        List<FileRow> rows = new ArrayList<>();
        for (int i = 0; i < objects.size(); i++) {
            JsonNode object = objects.get(i);
            String label = objects.size() == 1 ? name : name + " #" + (i + 1);
            DefinitionNotes.Tool tool = DefinitionNotes.Tool.of(object);
            Optional<BenchResult> none = Optional.empty();
            if (tool == DefinitionNotes.Tool.GUIDELLM) {
                JsonNode benchmarks = object.get("benchmarks");
                for (int b = 0; b < benchmarks.size(); b++) {
                    rows.add(new FileRow(
                            row(benchmarks.size() == 1 ? label : label + " #" + (b + 1), guidellm(benchmarks.get(b))),
                            tool,
                            none));
                }
            } else if (tool == DefinitionNotes.Tool.AIPERF) {
                rows.add(new FileRow(row(label, aiperf(object)), tool, none));
            } else if (tool == DefinitionNotes.Tool.INFERENCE_PERF) {
                rows.add(new FileRow(InferencePerfReport.row(file, label, object), tool, none));
            } else if (object.has("completed") || object.has("mean_ttft_ms") || object.has("request_throughput")) {
                BenchResult result = ResultReader.read(object);
                // TokenPulse writes itl_exact, vLLM does not
                boolean ours =
                        object.has("itl_exact") && !result.requests().ttftsS().isEmpty();
                rows.add(new FileRow(
                        row(result.label().orElse(label), result), tool, ours ? Optional.of(result) : none));
            } else {
                throw UserError.usage(file + ": unknown result format (none of the keys completed, mean_ttft_ms,"
                        + " benchmarks, time_to_first_token, successes); expected " + EXPECTED);
            }
        }
        return rows;
    }

    /** A result as a row of the compare table: one figure per column. */
    public static CompareTable.Row row(String label, BenchResult result) {
        double[] values = new double[Column.values().length];
        for (Column column : Column.values()) {
            values[column.ordinal()] = column.of(result);
        }
        return new CompareTable.Row(label, values);
    }

    /**
     * One GuideLLM benchmark: its metrics are distributions split by request status; the successful
     * requests' are vLLM's figures (token counts as their {@code total_sum}).
     */
    private static BenchResult guidellm(JsonNode benchmark) {
        JsonNode metrics = benchmark.path("metrics");
        JsonNode successful = metrics.path("request_totals").path("successful");
        if (successful.isMissingNode()) {
            successful = benchmark.path("run_stats").path("requests_made").path("successful");
        }
        return new BenchResult(
                Optional.empty(),
                Map.of(),
                number(successful),
                Double.NaN,
                number(benchmark.get("duration")),
                number(metrics.path("prompt_token_count").path("successful").get("total_sum")),
                number(metrics.path("output_token_count").path("successful").get("total_sum")),
                number(metrics.path("requests_per_second").path("successful").get("mean")),
                number(metrics.path("output_tokens_per_second")
                        .path("successful")
                        .get("mean")),
                number(metrics.path("tokens_per_second").path("successful").get("mean")),
                Double.NaN,
                distribution(metrics.path("time_to_first_token_ms").path("successful")),
                Latency.NONE,
                distribution(metrics.path("time_per_output_token_ms").path("successful")),
                distribution(metrics.path("inter_token_latency_ms").path("successful")),
                Requests.NONE);
    }

    private static Latency distribution(JsonNode stats) {
        return new Latency(
                number(stats.get("mean")),
                number(stats.get("median")),
                number(stats.path("percentiles").get("p99")));
    }

    /**
     * AIPerf's summary: each metric an object of {@code unit}, {@code avg}, {@code p50}, {@code p99}.
     * Its {@code inter_token_latency} is vLLM's TPOT (per request, excluding the first token); its
     * ITL in vLLM's sense is {@code inter_chunk_latency}, when exported.
     */
    private static BenchResult aiperf(JsonNode result) {
        return new BenchResult(
                Optional.empty(),
                Map.of(),
                aiperfValue(result.path("request_count"), "avg", 1),
                Double.NaN,
                aiperfValue(result.path("benchmark_duration"), "avg", 1),
                aiperfValue(result.path("total_isl"), "avg", 1),
                aiperfValue(result.path("total_osl"), "avg", 1),
                aiperfValue(result.path("request_throughput"), "avg", 1),
                aiperfValue(result.path("output_token_throughput"), "avg", 1),
                aiperfValue(result.path("total_token_throughput"), "avg", 1),
                Double.NaN,
                aiperfLatency(result.path("time_to_first_token")),
                aiperfLatency(result.path("time_to_first_output_token")),
                aiperfLatency(result.path("inter_token_latency")),
                aiperfLatency(result.path("inter_chunk_latency")),
                Requests.NONE);
    }

    private static Latency aiperfLatency(JsonNode stats) {
        return new Latency(
                aiperfValue(stats, "avg", 1e3), aiperfValue(stats, "p50", 1e3), aiperfValue(stats, "p99", 1e3));
    }

    /**
     * An AIPerf statistic, converted from the unit the file names: ns and us to ms, s to ms for a
     * latency ({@code perSecond} 1e3) and kept for the duration (1); NaN when missing.
     */
    private static double aiperfValue(JsonNode stats, String statistic, double perSecond) {
        JsonNode value = stats.get(statistic);
        if (value == null || !value.isNumber()) {
            return Double.NaN;
        }
        double scale = switch (stats.path("unit").asText("")) {
            case "ns" -> 1e-6;
            case "us" -> 1e-3;
            case "s", "sec" -> perSecond;
            default -> 1;
        };
        return value.asDouble() * scale;
    }

    private static double number(JsonNode value) {
        return value != null && value.isNumber() ? value.asDouble() : Double.NaN;
    }
}
