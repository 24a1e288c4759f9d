package io.tokenpulse.aggregator.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tokenpulse.aggregator.metrics.Metric;
import io.tokenpulse.aggregator.metrics.MetricStats;
import io.tokenpulse.aggregator.metrics.MetricStats.PercentileValue;
import io.tokenpulse.aggregator.metrics.RunResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A pooling run's block and result keys, as current {@code vllm bench serve} prints and saves them
 * for a backend of its {@code POOLING_BACKENDS} ({@code vllm/benchmarks/serve.py}: the lines of
 * {@code benchmark()} for an {@code EmbedBenchmarkMetrics}, and {@code process_one_metric("e2el", ...)}
 * alone).
 */
class PoolingBlockTest {

    private static MetricStats stats(Metric metric, double mean, double median, double p99) {
        return new MetricStats(metric, 4, mean, median, 1.5, List.of(new PercentileValue(99, p99)), true);
    }

    /** Four embeddings in 2 s, 512 input tokens; TTFT is selected too but a pooling run ignores it. */
    private static RunResult result() {
        return new RunResult(
                2_000_000_000L,
                4,
                0,
                512,
                0,
                2.0,
                OptionalDouble.empty(),
                0.0,
                256.0,
                0.0,
                4,
                0.0,
                true,
                List.of(stats(Metric.TTFT, 0, 0, 0), stats(Metric.E2EL, 35.25, 34.5, 41.0)));
    }

    private static RunConfig config(String backend, double rate, OptionalInt maxConcurrency) {
        return new RunConfig(
                "20261127-230000",
                backend,
                "BAAI/bge-m3",
                "BAAI/bge-m3",
                4,
                rate,
                1.0,
                maxConcurrency,
                Optional.empty());
    }

    private static String print(ConsoleReport.Layout layout, RunConfig config) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new ConsoleReport(layout).print(config, result(), new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @EnumSource(ConsoleReport.Layout.class)
    void theBlockIsVllmsPoolingBlockWhateverTheLayout(ConsoleReport.Layout layout) {
        assertThat(print(layout, config("openai-embeddings", Double.POSITIVE_INFINITY, OptionalInt.empty())))
                .isEqualTo("""
                        ============ Serving Benchmark Result ============
                        Successful requests:                     4        \s
                        Failed requests:                         0        \s
                        Benchmark duration (s):                  2.00     \s
                        Total input tokens:                      512      \s
                        Request throughput (req/s):              2.00     \s
                        Total token throughput (tok/s):          256.00   \s
                        ----------------End-to-end Latency----------------
                        Mean E2EL (ms):                          35.25    \s
                        Median E2EL (ms):                        34.50    \s
                        P99 E2EL (ms):                           41.00    \s
                        ==================================================
                        """);
    }

    @Test
    void aLimitAndAFiniteRateGetTheirLinesBeforeTheDuration() {
        String block = print(ConsoleReport.Layout.SEED, config("vllm-rerank", 8.0, OptionalInt.of(2)));
        assertThat(block)
                .contains("Failed requests:                         0         \n"
                        + "Maximum request concurrency:             2         \n"
                        + "Request rate configured (RPS):           8.00      \n"
                        + "Benchmark duration (s):                  2.00      \n");
        assertThat(block).doesNotContain("generated", "Output token", "Peak", "TTFT", "TPOT", "ITL");
    }

    @Test
    void aGenerationBackendKeepsItsOwnBlock() {
        assertThat(print(ConsoleReport.Layout.SEED, config("vllm", 8.0, OptionalInt.empty())))
                .contains("Total generated tokens:", "Mean TTFT (ms):");
    }

    @Test
    void theResultFileHasVllmsPoolingKeysAndE2elAlone() throws Exception {
        String json = ResultJson.of(
                        config("vllm-score", Double.POSITIVE_INFINITY, OptionalInt.empty()), result(), Map.of())
                .toJson();
        var tree = new ObjectMapper().readTree(json);
        List<String> keys = new ArrayList<>();
        tree.fieldNames().forEachRemaining(keys::add);
        // vLLM's pooling result: duration, completed, total_input_tokens, request_throughput,
        // total_token_throughput and the e2el keys; the generation keys stay (0), as readers expect them
        assertThat(keys)
                .contains(
                        "duration",
                        "completed",
                        "total_input_tokens",
                        "request_throughput",
                        "total_token_throughput",
                        "mean_e2el_ms",
                        "median_e2el_ms",
                        "std_e2el_ms",
                        "p99_e2el_ms")
                .noneMatch(k -> k.contains("ttft") || k.contains("tpot") || k.contains("itl_ms"));
        assertThat(tree.get("total_input_tokens").asLong()).isEqualTo(512);
        assertThat(tree.get("total_token_throughput").asDouble()).isEqualTo(256.0);
        assertThat(tree.get("p99_e2el_ms").asDouble()).isEqualTo(41.0);
    }
}
