package io.tokenpulse.cli.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tokenpulse.cli.report.CompareTable.Column;
import io.tokenpulse.runner.UserError;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Benchmark result files read into {@link CompareTable.Row}s: vLLM's (every version's keys; also
 * TokenPulse's, which has vLLM's keys, and {@code --append-result} files of one JSON object per
 * line), GuideLLM's {@code benchmarks.json} (one row per benchmark), AIPerf's
 * {@code profile_export_aiperf.json} and inference-perf's report ({@link InferencePerfReport}). A figure the file does not have is NaN.
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

    /** The rows of one file, labelled after the file (or vLLM's {@code label} key). */
    public static List<CompareTable.Row> rows(Path file) {
        String name = file.getFileName().toString().replaceFirst("\\.json$", "");
        List<JsonNode> objects = objects(file);
        List<CompareTable.Row> rows = new ArrayList<>();
        for (int i = 0; i < objects.size(); i++) {
            JsonNode object = objects.get(i);
            String label = objects.size() == 1 ? name : name + " #" + (i + 1);
            if (object.has("benchmarks") && object.get("benchmarks").isArray()) {
                JsonNode benchmarks = object.get("benchmarks");
                for (int b = 0; b < benchmarks.size(); b++) {
                    rows.add(guidellm(benchmarks.size() == 1 ? label : label + " #" + (b + 1), benchmarks.get(b)));
                }
            } else if (object.path("time_to_first_token").has("unit")
                    || object.path("request_throughput").has("unit")) {
                rows.add(aiperf(label, object));
            } else if (InferencePerfReport.matches(object)) {
                rows.add(InferencePerfReport.row(file, label, object));
            } else if (object.has("completed") || object.has("mean_ttft_ms") || object.has("request_throughput")) {
                rows.add(vllm(object.hasNonNull("label") ? object.get("label").asText() : label, object));
            } else {
                throw UserError.usage(file + ": unknown result format (none of the keys completed, mean_ttft_ms,"
                        + " benchmarks, time_to_first_token, successes); expected " + EXPECTED);
            }
        }
        return rows;
    }

    /**
     * vLLM's result keys. The first vLLM files (early 2024) say {@code request_inthroughput} and have
     * no {@code total_token_throughput} (it is their input plus output throughput) nor ITL keys.
     */
    public static CompareTable.Row vllm(String label, JsonNode result) {
        double[] values = blank();
        for (Column column : Column.values()) {
            set(values, column, result.get(column.key));
        }
        // older vLLM versions' keys
        if (!result.has("request_throughput")) {
            set(values, Column.REQUEST_THROUGHPUT, result.get("request_inthroughput"));
        }
        if (!result.has("total_token_throughput")
                && result.path("input_throughput").isNumber()
                && result.path("output_throughput").isNumber()) {
            values[Column.TOTAL_THROUGHPUT.ordinal()] =
                    result.get("input_throughput").asDouble()
                            + result.get("output_throughput").asDouble();
        }
        return new CompareTable.Row(label, values);
    }

    /**
     * One GuideLLM benchmark: its metrics are distributions split by request status; the successful
     * requests' are vLLM's figures (token counts as their {@code total_sum}).
     */
    private static CompareTable.Row guidellm(String label, JsonNode benchmark) {
        double[] values = blank();
        JsonNode metrics = benchmark.path("metrics");
        JsonNode successful = metrics.path("request_totals").path("successful");
        if (successful.isMissingNode()) {
            successful = benchmark.path("run_stats").path("requests_made").path("successful");
        }
        set(values, Column.SUCCESSFUL, successful);
        set(values, Column.DURATION, benchmark.get("duration"));
        set(
                values,
                Column.INPUT_TOKENS,
                metrics.path("prompt_token_count").path("successful").get("total_sum"));
        set(
                values,
                Column.OUTPUT_TOKENS,
                metrics.path("output_token_count").path("successful").get("total_sum"));
        set(
                values,
                Column.REQUEST_THROUGHPUT,
                metrics.path("requests_per_second").path("successful").get("mean"));
        set(
                values,
                Column.OUTPUT_THROUGHPUT,
                metrics.path("output_tokens_per_second").path("successful").get("mean"));
        set(
                values,
                Column.TOTAL_THROUGHPUT,
                metrics.path("tokens_per_second").path("successful").get("mean"));
        distribution(
                values, Column.MEAN_TTFT, metrics.path("time_to_first_token_ms").path("successful"));
        distribution(
                values,
                Column.MEAN_TPOT,
                metrics.path("time_per_output_token_ms").path("successful"));
        distribution(
                values, Column.MEAN_ITL, metrics.path("inter_token_latency_ms").path("successful"));
        return new CompareTable.Row(label, values);
    }

    private static void distribution(double[] values, Column mean, JsonNode stats) {
        set(values, mean, stats.get("mean"));
        set(values, Column.values()[mean.ordinal() + 1], stats.get("median"));
        set(
                values,
                Column.values()[mean.ordinal() + 2],
                stats.path("percentiles").get("p99"));
    }

    /**
     * AIPerf's summary: each metric an object of {@code unit}, {@code avg}, {@code p50}, {@code p99}.
     * Its {@code inter_token_latency} is vLLM's TPOT (per request, excluding the first token); its
     * ITL in vLLM's sense is {@code inter_chunk_latency}, when exported.
     */
    private static CompareTable.Row aiperf(String label, JsonNode result) {
        double[] values = blank();
        aiperfValue(values, Column.SUCCESSFUL, result.path("request_count"), "avg");
        aiperfValue(values, Column.DURATION, result.path("benchmark_duration"), "avg");
        aiperfValue(values, Column.INPUT_TOKENS, result.path("total_isl"), "avg");
        aiperfValue(values, Column.OUTPUT_TOKENS, result.path("total_osl"), "avg");
        aiperfValue(values, Column.REQUEST_THROUGHPUT, result.path("request_throughput"), "avg");
        aiperfValue(values, Column.OUTPUT_THROUGHPUT, result.path("output_token_throughput"), "avg");
        aiperfValue(values, Column.TOTAL_THROUGHPUT, result.path("total_token_throughput"), "avg");
        aiperfDistribution(values, Column.MEAN_TTFT, result.path("time_to_first_token"));
        aiperfDistribution(values, Column.MEAN_TTFO, result.path("time_to_first_output_token"));
        aiperfDistribution(values, Column.MEAN_TPOT, result.path("inter_token_latency"));
        aiperfDistribution(values, Column.MEAN_ITL, result.path("inter_chunk_latency"));
        return new CompareTable.Row(label, values);
    }

    private static void aiperfDistribution(double[] values, Column mean, JsonNode stats) {
        aiperfValue(values, mean, stats, "avg");
        aiperfValue(values, Column.values()[mean.ordinal() + 1], stats, "p50");
        aiperfValue(values, Column.values()[mean.ordinal() + 2], stats, "p99");
    }

    /** An AIPerf statistic, latencies converted to ms from the unit the file names. */
    private static void aiperfValue(double[] values, Column column, JsonNode stats, String statistic) {
        JsonNode value = stats.get(statistic);
        if (value == null || !value.isNumber()) {
            return;
        }
        double scale = switch (stats.path("unit").asText("")) {
            case "ns" -> 1e-6;
            case "us" -> 1e-3;
            case "s", "sec" -> column == Column.DURATION ? 1 : 1e3;
            default -> 1;
        };
        values[column.ordinal()] = value.asDouble() * scale;
    }

    private static double[] blank() {
        double[] values = new double[Column.values().length];
        Arrays.fill(values, Double.NaN);
        return values;
    }

    private static void set(double[] values, Column column, JsonNode value) {
        if (value != null && value.isNumber()) {
            values[column.ordinal()] = value.asDouble();
        }
    }
}
