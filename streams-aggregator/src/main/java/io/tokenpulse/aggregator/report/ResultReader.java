package io.tokenpulse.aggregator.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tokenpulse.aggregator.report.BenchResult.Latency;
import io.tokenpulse.aggregator.report.BenchResult.Requests;
import io.tokenpulse.schemas.avro.RunSummary;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The one reader of a result file's keys into a {@link BenchResult}: vLLM's current keys (which
 * TokenPulse writes too, {@link ResultJson}), those of the first vLLM files (early 2024: {@code
 * request_inthroughput}, no {@code total_token_throughput}, which is their input plus output
 * throughput), and files that lack a figure (NaN) or the per-request lists.
 */
public final class ResultReader {

    /** The key from which a vLLM file lists figures; the keys before it are the run's settings. */
    private static final String FIRST_FIGURE = "duration";

    private static final ObjectMapper TREE = new ObjectMapper();

    private ResultReader() {}

    /** A result file's object (one line of an {@code --append-result} file). */
    public static BenchResult read(JsonNode result) {
        double requestThroughput = result.has("request_throughput")
                ? number(result, "request_throughput")
                : number(result, "request_inthroughput");
        double totalThroughput = number(result, "total_token_throughput");
        if (!result.has("total_token_throughput")
                && result.path("input_throughput").isNumber()
                && result.path("output_throughput").isNumber()) {
            totalThroughput = result.get("input_throughput").asDouble()
                    + result.get("output_throughput").asDouble();
        }
        return new BenchResult(
                result.hasNonNull("label") ? Optional.of(result.get("label").asText()) : Optional.empty(),
                settings(result),
                number(result, "completed"),
                number(result, "failed"),
                number(result, "duration"),
                number(result, "total_input_tokens"),
                number(result, "total_output_tokens"),
                requestThroughput,
                number(result, "output_throughput"),
                totalThroughput,
                number(result, "rtfx"),
                latency(result, "ttft"),
                latency(result, "ttfo"),
                latency(result, "tpot"),
                latency(result, "itl"),
                requests(result));
    }

    /**
     * The result a run just wrote, read as its file would be: through the same keys, so that a sweep
     * judges a point in memory exactly as from the file it saved.
     */
    public static BenchResult of(ResultJson json) {
        // a plain mapper: Python's float text is the file's concern, the tree holds the doubles themselves
        return read(TREE.valueToTree(json));
    }

    /**
     * A run's result from its summary, as its file holds it without the per-request lists: what a
     * sweep judges a point by.
     */
    public static BenchResult of(RunSummary summary) {
        return of(SummaryRecords.resultJson(summary, List.of(), Map.of(), null, false));
    }

    private static Map<String, String> settings(JsonNode result) {
        Map<String, String> settings = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = result.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            if (field.getKey().equals(FIRST_FIGURE)) {
                break;
            }
            if (field.getValue().isValueNode()) {
                settings.put(field.getKey(), field.getValue().asText());
            }
        }
        return settings;
    }

    private static Latency latency(JsonNode result, String metric) {
        return new Latency(
                number(result, "mean_" + metric + "_ms"),
                number(result, "median_" + metric + "_ms"),
                number(result, "p99_" + metric + "_ms"));
    }

    private static Requests requests(JsonNode result) {
        List<List<Double>> itls = new ArrayList<>();
        result.path("itls").forEach(request -> itls.add(numbers(request)));
        Optional<List<String>> errors = Optional.empty();
        if (result.has("errors")) {
            List<String> texts = new ArrayList<>();
            result.get("errors").forEach(error -> texts.add(error.asText("")));
            errors = Optional.of(texts);
        }
        return new Requests(
                numbers(result.path("ttfts")),
                result.has("ttfos") ? Optional.of(numbers(result.get("ttfos"))) : Optional.empty(),
                itls,
                errors,
                integers(result.path("input_lens")),
                integers(result.path("output_lens")));
    }

    private static List<Integer> integers(JsonNode list) {
        List<Integer> values = new ArrayList<>();
        list.forEach(v -> values.add(v.asInt()));
        return values;
    }

    private static List<Double> numbers(JsonNode list) {
        List<Double> values = new ArrayList<>();
        list.forEach(v -> values.add(v.asDouble()));
        return values;
    }

    private static double number(JsonNode result, String key) {
        JsonNode value = result.get(key);
        return value != null && value.isNumber() ? value.asDouble() : Double.NaN;
    }
}
