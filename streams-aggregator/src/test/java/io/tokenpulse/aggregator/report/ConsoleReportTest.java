package io.tokenpulse.aggregator.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.tokenpulse.aggregator.metrics.LatencyStats;
import io.tokenpulse.aggregator.metrics.Metric;
import io.tokenpulse.aggregator.metrics.MetricStats;
import io.tokenpulse.aggregator.metrics.MetricStats.PercentileValue;
import io.tokenpulse.aggregator.metrics.ReasoningResult;
import io.tokenpulse.aggregator.metrics.RunResult;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ConsoleReportTest {

    private static final RunConfig SEED_000_CONFIG = new RunConfig(
            "20250515-134619",
            "vllm",
            "facebook/opt-6.7b",
            "facebook/opt-6.7b",
            4800,
            4.0,
            1.0,
            OptionalInt.empty(),
            Optional.empty());

    private static MetricStats stats(Metric metric, double mean, double median, double p99) {
        return new MetricStats(metric, 1, mean, median, 0, List.of(new PercentileValue(99, p99)), true);
    }

    /** The figures of vLLM's 20-minute run (testdata/vllm/benchmark-serving-20min-run.txt, all five metrics). */
    private static RunResult seed000(long failed, OptionalDouble goodput) {
        return new RunResult(
                1_200_210_000_000L,
                4762,
                failed,
                1_083_600,
                1_108_608,
                3.97,
                goodput,
                923.68,
                1826.52,
                1234.0,
                37,
                0.0,
                true,
                List.of(
                        stats(Metric.TTFT, 98.30, 86.98, 248.21),
                        stats(Metric.TPOT, 39.74, 38.43, 73.69),
                        stats(Metric.ITL, 71.59, 59.64, 256.77),
                        stats(Metric.E2EL, 8663.06, 5606.85, 41893.83),
                        stats(Metric.TOKEN_LATENCY, 41.71, 39.85, 82.11)));
    }

    private static String print(ConsoleReport report, RunConfig config, RunResult result) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        report.print(config, result, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8);
    }

    static String resource(String name) throws IOException {
        try (InputStream in = ConsoleReportTest.class.getResourceAsStream(name)) {
            return in == null ? "<missing " + name + ">" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void reproducesSeed000BlockByteForByte() throws IOException {
        assertThat(print(
                        new ConsoleReport(ConsoleReport.Layout.SEED),
                        SEED_000_CONFIG,
                        seed000(0, OptionalDouble.empty())))
                .isEqualTo(resource("seed000-block.txt"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "goodput line under --goodput, after request throughput | Request throughput (req/s):      | 'Request goodput (req/s):                 2.50      '",
                "failed line after the successful one                   | Successful requests:             | 'Failed requests:                         3         '",
                "max concurrency line under --max-concurrency           | Failed requests:                 | 'Maximum request concurrency:             8         '",
                "peak lines when asked, after output throughput         | Output token throughput (tok/s): | 'Peak output token throughput (tok/s):    1234.00   '",
                "peak concurrency printed with 2 decimals as vLLM does  | Peak output token throughput     | 'Peak concurrent requests:                37.00     '",
                "current vLLM's configured rate, after max concurrency  | Maximum request concurrency:     | 'Request rate configured (RPS):           4.00      '",
                "current vLLM's small t in total token throughput       | Peak concurrent requests:        | 'Total token throughput (tok/s):          1826.52   '",
            })
    void currentVllmsLinesAppearInItsOrder(String why, String previousLabel, String line) {
        RunConfig config =
                new RunConfig("20250515-134619", "vllm", "m", "m", 10, 4.0, 1.0, OptionalInt.of(8), Optional.empty());
        List<String> lines = print(
                        new ConsoleReport(ConsoleReport.Layout.CURRENT), config, seed000(3, OptionalDouble.of(2.5)))
                .lines()
                .toList();
        int at = lines.indexOf(line);
        assertThat(at).as(line).isPositive();
        assertThat(lines.get(at - 1)).startsWith(previousLabel);
    }

    @Test
    void currentVllmsBlockPrintsFailedRequestsAlwaysAndNoConfiguredRateForInf() {
        RunConfig inf = new RunConfig(
                "20250515-134619",
                "vllm",
                "m",
                "m",
                10,
                Double.POSITIVE_INFINITY,
                1.0,
                OptionalInt.empty(),
                Optional.empty());
        assertThat(print(new ConsoleReport(ConsoleReport.Layout.CURRENT), inf, seed000(0, OptionalDouble.empty())))
                .contains(
                        "Successful requests:                     4762      \nFailed requests:                         0 ")
                .doesNotContain("Request rate configured", "Total Token");
    }

    @Test
    void anAudioRunsRtfxFollowsPeakConcurrencyInCurrentVllmsBlockOnly() {
        RunResult plain = seed000(0, OptionalDouble.empty());
        RunResult audio = new RunResult(
                plain.durationNs(),
                plain.completed(),
                plain.failed(),
                plain.totalInputTokens(),
                plain.totalOutputTokens(),
                plain.requestThroughput(),
                plain.requestGoodput(),
                plain.outputThroughput(),
                plain.totalTokenThroughput(),
                plain.maxOutputTokensPerS(),
                plain.maxConcurrentRequests(),
                0.754,
                plain.itlExact(),
                plain.metrics());
        String rtfx = "RTFx (Inverse Real-Time Factor):         0.75      \n";

        assertThat(print(new ConsoleReport(ConsoleReport.Layout.CURRENT), SEED_000_CONFIG, audio))
                .contains("Peak concurrent requests:                37.00     \n" + rtfx
                        + "Total token throughput (tok/s):          1826.52   \n");
        assertThat(print(new ConsoleReport(ConsoleReport.Layout.CURRENT), SEED_000_CONFIG, plain))
                .as("vLLM prints it only above 0")
                .doesNotContain("RTFx");
        assertThat(print(new ConsoleReport(ConsoleReport.Layout.SEED), SEED_000_CONFIG, audio))
                .as("mid-2025 benchmark_serving.py had no RTFx")
                .doesNotContain("RTFx");
    }

    @Test
    void withoutOptionsNoOptionalLineAppears() {
        String text = print(
                new ConsoleReport(ConsoleReport.Layout.SEED), SEED_000_CONFIG, seed000(0, OptionalDouble.empty()));
        assertThat(text).doesNotContain("goodput", "Failed", "Maximum", "Peak");
    }

    @Test
    void aReasoningRunsSectionFollowsTtftsInTheBlocksLineFormat() throws IOException {
        ReasoningResult reasoning = new ReasoningResult(
                4762,
                800_000,
                308_608,
                new LatencyStats(4762, 1098.3, 1086.98, 12, List.of(new PercentileValue(99, 1248.214)), true));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new ConsoleReport(ConsoleReport.Layout.SEED)
                .print(
                        SEED_000_CONFIG,
                        seed000(0, OptionalDouble.empty()),
                        BlockExtensions.NONE.withReasoning(Optional.of(reasoning)),
                        new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String text = bytes.toString(StandardCharsets.UTF_8);

        assertThat(text)
                .contains("P99 TTFT (ms):                           248.21    \n"
                        + "------------Time to First Output Token------------\n"
                        + "Reasoning tokens:                        800000    \n"
                        + "Answer tokens:                           308608    \n"
                        + "Mean TTFO (ms):                          1098.30   \n"
                        + "Median TTFO (ms):                        1086.98   \n"
                        + "P99 TTFO (ms):                           1248.21   \n"
                        + "-----Time per Output Token (excl. 1st token)------\n");
        assertThat(text.replaceAll("(?s)-+Time to First Output Token.*?(?=-----Time per)", ""))
                .as("the rest is the 20-minute run's block")
                .isEqualTo(resource("seed000-block.txt"));
    }

    @Test
    void perModelSectionFollowsTheBlocksLineFormat() {
        List<ModelResult> models = List.of(
                new ModelResult(
                        "sql-lora",
                        4,
                        1,
                        List.of(
                                stats(Metric.TTFT, 12.5, 12, 20.25),
                                stats(Metric.TPOT, 3, 3, 4),
                                stats(Metric.ITL, 3.1, 3, 5))),
                new ModelResult("chat", 3, 0, List.of(stats(Metric.TTFT, 10, 10, 11))));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new ConsoleReport(ConsoleReport.Layout.SEED)
                .printPerModel(models, new PrintStream(bytes, true, StandardCharsets.UTF_8));

        assertThat(bytes.toString(StandardCharsets.UTF_8))
                .isEqualTo("================ Per Served Model ================\n"
                        + "-------------------- sql-lora --------------------\n"
                        + "Successful requests:                     4         \n"
                        + "Failed requests:                         1         \n"
                        + "Mean TTFT (ms):                          12.50     \n"
                        + "P99 TTFT (ms):                           20.25     \n"
                        + "Mean TPOT (ms):                          3.00      \n"
                        + "P99 TPOT (ms):                           4.00      \n"
                        + "Mean ITL (ms):                           3.10      \n"
                        + "P99 ITL (ms):                            5.00      \n"
                        + "---------------------- chat ----------------------\n"
                        + "Successful requests:                     3         \n"
                        + "Mean TTFT (ms):                          10.00     \n"
                        + "P99 TTFT (ms):                           11.00     \n"
                        + "==================================================\n");
        ByteArrayOutputStream none = new ByteArrayOutputStream();
        new ConsoleReport(ConsoleReport.Layout.SEED)
                .printPerModel(List.of(), new PrintStream(none, true, StandardCharsets.UTF_8));
        assertThat(none.size()).isZero();
    }

    @Test
    void sectionTitlesAreCentredWithTheSmallerHalfLeft() {
        assertThat(ConsoleReport.centred("Time per Output Token (excl. 1st token)", '-'))
                .isEqualTo("-----Time per Output Token (excl. 1st token)------");
        assertThat(ConsoleReport.centred(" Serving Benchmark Result ", '='))
                .isEqualTo("============ Serving Benchmark Result ============");
    }

    @Test
    void fractionalPercentileLabelKeepsItsDecimals() {
        RunResult result = new RunResult(
                1_000_000_000L,
                1,
                0,
                1,
                1,
                1,
                OptionalDouble.empty(),
                1,
                2,
                1,
                1,
                0,
                true,
                List.of(new MetricStats(
                        Metric.ITL,
                        1,
                        1,
                        1,
                        0,
                        List.of(new PercentileValue(99.9, 3.14159), new PercentileValue(50, 2)),
                        true)));
        assertThat(print(new ConsoleReport(ConsoleReport.Layout.SEED), SEED_000_CONFIG, result))
                .contains("P99.9 ITL (ms):                          3.14      \n")
                .contains("P50 ITL (ms):                            2.00      \n");
    }
}
