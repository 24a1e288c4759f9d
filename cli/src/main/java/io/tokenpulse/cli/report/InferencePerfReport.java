package io.tokenpulse.cli.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.tokenpulse.cli.report.CompareTable.Column;
import io.tokenpulse.runner.UserError;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * inference-perf's (kubernetes-sigs/inference-perf) summary report, {@code summary_lifecycle_metrics.json}
 * or a stage's {@code stage_N_lifecycle_metrics.json}, read into a {@link CompareTable.Row}.
 *
 * <p>The layout, from {@code inference_perf/reportgen/base.py} ({@code summarize_requests}, {@code
 * summarize}) at {@code 010d12fb}: {@code successes.latency} holds {@code time_to_first_token},
 * {@code time_per_output_token}, {@code inter_token_latency} (every gap, pooled) and {@code
 * request_latency}, each {@code mean}, {@code median}, {@code p99} (and others) in seconds;
 * {@code successes.throughput} holds {@code requests_per_sec}, {@code output_tokens_per_sec},
 * {@code total_tokens_per_sec} over the first start to the last end of all requests
 * ({@code benchmark_time_seconds}); {@code successes.prompt_tokens.total} and {@code
 * successes.output_tokens.total} the token counts (older versions: only {@code prompt_len} and
 * {@code output_len} distributions, so no totals). A figure the file does not have is NaN.
 */
final class InferencePerfReport {
    private InferencePerfReport() {}

    /** Whether {@code object} is inference-perf's report: a {@code successes} and a {@code failures} section. */
    static boolean matches(JsonNode object) {
        return object.path("successes").isObject() && object.has("failures");
    }

    /**
     * The report's successful requests as a row.
     *
     * @throws UserError (usage) naming the file and the sections it lacks, for a version without them
     */
    static CompareTable.Row row(Path file, String label, JsonNode report) {
        JsonNode successes = report.get("successes");
        List<String> missing = new ArrayList<>();
        for (String section : List.of("count", "latency", "throughput")) {
            if (!successes.has(section)) {
                missing.add("successes." + section);
            }
        }
        if (!missing.isEmpty()) {
            throw UserError.usage(file + ": an inference-perf report without " + String.join(", ", missing)
                    + "; expected summary_lifecycle_metrics.json of inference-perf 0.2 or later");
        }
        double[] values = new double[Column.values().length];
        Arrays.fill(values, Double.NaN);
        set(values, Column.SUCCESSFUL, successes.get("count"), 1);
        set(values, Column.DURATION, report.get("benchmark_time_seconds"), 1);
        set(values, Column.INPUT_TOKENS, successes.path("prompt_tokens").get("total"), 1);
        set(values, Column.OUTPUT_TOKENS, successes.path("output_tokens").get("total"), 1);
        JsonNode throughput = successes.get("throughput");
        set(values, Column.REQUEST_THROUGHPUT, throughput.get("requests_per_sec"), 1);
        set(values, Column.OUTPUT_THROUGHPUT, throughput.get("output_tokens_per_sec"), 1);
        set(values, Column.TOTAL_THROUGHPUT, throughput.get("total_tokens_per_sec"), 1);
        JsonNode latency = successes.get("latency");
        distribution(values, Column.MEAN_TTFT, latency.path("time_to_first_token"));
        distribution(values, Column.MEAN_TPOT, latency.path("time_per_output_token"));
        distribution(values, Column.MEAN_ITL, latency.path("inter_token_latency"));
        return new CompareTable.Row(label, values);
    }

    /** Mean, median and P99 of a latency in seconds, as ms in the column {@code mean} and the two after it. */
    private static void distribution(double[] values, Column mean, JsonNode stats) {
        set(values, mean, stats.get("mean"), 1000);
        set(values, Column.values()[mean.ordinal() + 1], stats.get("median"), 1000);
        set(values, Column.values()[mean.ordinal() + 2], stats.get("p99"), 1000);
    }

    private static void set(double[] values, Column column, JsonNode value, double scale) {
        if (value != null && value.isNumber()) {
            values[column.ordinal()] = value.asDouble() * scale;
        }
    }
}
