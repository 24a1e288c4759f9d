package io.tokenpulse.aggregator.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.tokenpulse.aggregator.metrics.Metric;
import io.tokenpulse.aggregator.metrics.MetricStats;
import io.tokenpulse.aggregator.metrics.MetricStats.PercentileValue;
import io.tokenpulse.aggregator.metrics.PrefixCache;
import io.tokenpulse.aggregator.metrics.ProbeResult;
import io.tokenpulse.aggregator.metrics.RunResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** Issue 33's lines in the block and the sections after it, and their result keys. */
class RequestMetricsSectionsTest {

    private static final RunConfig CONFIG =
            new RunConfig("20261127-230000", "vllm", "m", "m", 10, 20.0, 1.0, OptionalInt.of(2), Optional.empty());

    private static MetricStats stats(Metric metric, double mean) {
        return new MetricStats(metric, 4, mean, mean, 0, List.of(new PercentileValue(99, mean)), true);
    }

    private static final RunResult RESULT = new RunResult(
            2_000_000_000L,
            10,
            0,
            1000,
            100,
            5,
            OptionalDouble.empty(),
            50,
            550,
            60,
            2,
            0,
            true,
            List.of(
                    stats(Metric.TTFT, 10),
                    stats(Metric.CLIENT_QUEUE_TIME, 30),
                    stats(Metric.E2EL_INCLUDING_CLIENT_QUEUE, 80)));

    private static String block(Optional<PrefixCache> cache) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new ConsoleReport(ConsoleReport.Layout.SEED)
                .print(
                        CONFIG,
                        RESULT,
                        BlockExtensions.NONE.withPrefixCache(cache),
                        new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void clientQueueSectionsUseTheBlocksLineFormat() {
        assertThat(block(Optional.empty()))
                .contains("----------------Client Queue Time-----------------\n"
                        + "Mean Client Queue Time (ms):             30.00     \n"
                        + "Median Client Queue Time (ms):           30.00     \n"
                        + "P99 Client Queue Time (ms):              30.00     \n"
                        + "----------E2E Latency incl. Client Queue----------\n"
                        + "Mean E2EL incl. Client Queue (ms):       80.00     \n")
                .doesNotContain("Prefix cache");
    }

    @Test
    void thePrefixCacheLinesFollowTheThroughputs() {
        assertThat(block(Optional.of(new PrefixCache(8, 300, 1000, 0.3))))
                .contains("Total Token throughput (tok/s):          550.00    \n"
                        + "Total cached tokens:                     300       \n"
                        + "Prefix cache hit rate (%):               30.00     \n");
    }

    @Test
    void steadyStateAndProbesPrintAfterTheBlockAndSaveAsObjects() {
        SteadyStateReport steady = new SteadyStateReport(0.5, 1.5, 2, 2, 6, 6.0, 60.0, List.of(stats(Metric.TTFT, 9)));
        ProbeReport probes =
                new ProbeReport(3, 0, List.of(stats(Metric.TTFT, 4), stats(Metric.E2EL, 5)), Optional.empty());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new ConsoleReport(ConsoleReport.Layout.SEED)
                .printAfterBlock(
                        Optional.of(steady),
                        Optional.empty(),
                        Optional.of(probes),
                        new PrintStream(bytes, true, StandardCharsets.UTF_8));
        assertThat(bytes.toString(StandardCharsets.UTF_8))
                .contains("================== Steady State ==================\n"
                        + "Plateau start (s):                       0.50      \n"
                        + "Plateau end (s):                         1.50      \n")
                .contains("Successful probes:                       3         \n")
                .doesNotContain("Failed probes");

        String json = ResultJson.of(CONFIG, RESULT, Map.of())
                .withSteadyState(steady)
                .withProbes(probes)
                .withPrefixCache(new ResultJson.PrefixCacheKeys(300, 0.3))
                .toJson();
        assertThat(json)
                .contains("\"total_cached_tokens\": 300, \"prefix_cache_hit_rate\": 0.3")
                .contains("\"steady_state\": {\"start_s\": 0.5, \"end_s\": 1.5, \"plateau_in_flight\": 2,"
                        + " \"band_floor\": 2, \"completed\": 6, \"request_throughput\": 6.0,"
                        + " \"output_throughput\": 60.0, \"mean_ttft_ms\": 9.0")
                .contains("\"probes\": {\"completed\": 3, \"failed\": 0, \"mean_ttft_ms\": 4.0")
                .contains("\"mean_client_queue_time_ms\": 30.0")
                .contains("\"p99_e2el_including_client_queue_ms\": 80.0");
    }

    private static final ProbeReport VLLM_PROBES = new ProbeReport(
            3,
            1,
            List.of(stats(Metric.TTFT, 4), stats(Metric.E2EL, 5)),
            Optional.of(new ProbeResult.VllmE2el(5, 7.5, 8.25)));

    @Test
    void currentVllmsProbeLinesFollowTheThroughputsInsideTheBlock() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new ConsoleReport(ConsoleReport.Layout.CURRENT)
                .print(
                        CONFIG,
                        RESULT,
                        BlockExtensions.NONE.withProbes(Optional.of(VLLM_PROBES)),
                        new PrintStream(bytes, true, StandardCharsets.UTF_8));
        // vllm/benchmarks/serve.py at 12068ee6871c89e5b41222063a5ea0e1bd093b1a: after "Total token
        // throughput", before the first metric section
        assertThat(bytes.toString(StandardCharsets.UTF_8))
                .contains("Total token throughput (tok/s):          550.00    \n"
                        + "------------------Probe Requests------------------\n"
                        + "Probe requests completed:                3         \n"
                        + "Probe requests failed:                   1         \n"
                        + "Median probe E2EL (ms):                  5.00      \n"
                        + "P99 probe E2EL (ms):                     7.50      \n"
                        + "Max probe E2EL (ms):                     8.25      \n"
                        + "---------------Time to First Token----------------\n");
    }

    @Test
    void theSeedBlockAndARunWithoutASuccessfulProbeHaveNoProbeLines() {
        ByteArrayOutputStream seed = new ByteArrayOutputStream();
        new ConsoleReport(ConsoleReport.Layout.SEED)
                .print(
                        CONFIG,
                        RESULT,
                        BlockExtensions.NONE.withProbes(Optional.of(VLLM_PROBES)),
                        new PrintStream(seed, true, StandardCharsets.UTF_8));
        ByteArrayOutputStream noneAnswered = new ByteArrayOutputStream();
        new ConsoleReport(ConsoleReport.Layout.CURRENT)
                .print(
                        CONFIG,
                        RESULT,
                        BlockExtensions.NONE.withProbes(
                                Optional.of(new ProbeReport(0, 2, List.of(), Optional.empty()))),
                        new PrintStream(noneAnswered, true, StandardCharsets.UTF_8));
        assertThat(seed.toString(StandardCharsets.UTF_8)).doesNotContain("Probe");
        assertThat(noneAnswered.toString(StandardCharsets.UTF_8)).doesNotContain("Probe");
    }

    @Test
    void vllmsProbeKeysAreFlatBesideTheProbesObject() {
        String json = ResultJson.of(CONFIG, RESULT, Map.of())
                .withProbes(VLLM_PROBES)
                .withVllmProbes(VLLM_PROBES.vllmKeys().orElseThrow())
                .toJson();
        assertThat(json)
                .contains("\"probes\": {\"completed\": 3, \"failed\": 1, \"mean_ttft_ms\": 4.0")
                .contains("\"probe_completed\": 3, \"probe_failed\": 1, \"probe_median_e2el_ms\": 5.0,"
                        + " \"probe_p99_e2el_ms\": 7.5, \"probe_max_e2el_ms\": 8.25");
    }

    @Test
    void theCurrentLayoutWritesEndpointTypeAndStartTimesAndTheSeedLayoutNeither() {
        ResultJson detailed = ResultJson.of(CONFIG, RESULT, Map.of())
                .withDetails(List.of(new RequestDetail(3, 2, 0.1, 0, List.of(0.05), 1764284400.25, "ab", "")));
        String current = detailed.inLayout(ConsoleReport.Layout.CURRENT).toJson();
        String seed = detailed.inLayout(ConsoleReport.Layout.SEED).toJson();
        // current vllm/benchmarks/serve.py: endpoint_type right after date; start_times after itls
        assertThat(current)
                .startsWith("{\"date\": \"20261127-230000\", \"endpoint_type\": \"vllm\", \"backend\": \"vllm\",")
                .contains("\"itls\": [[0.05]], \"start_times\": [1764284400.25], \"generated_texts\"");
        assertThat(seed).doesNotContain("endpoint_type").doesNotContain("start_times");
    }

    @Test
    void aRampUpsKeysFollowMaxConcurrencyAndItsStepsPrecedeTheMetricKeys() {
        RunConfig ramp = new RunConfig(
                "20261127-230000",
                "vllm",
                "org/m",
                "m",
                10,
                Double.POSITIVE_INFINITY,
                1.0,
                OptionalInt.of(2),
                Optional.of(RampUpKeys.of("linear", 1, 2.5)));
        // vLLM's compute_result_filename
        assertThat(ResultFile.defaultName(ramp))
                .isEqualTo("vllm-ramp-up-linear-1qps-2.5qps-concurrency2-m-20261127-230000.json");
        String json = ResultJson.of(ramp, RESULT, Map.of())
                .withRpsChangeEvents(List.of(
                        RampUpKeys.RpsChangeEvent.at(1, 1_764_297_000_000_000_000L, java.time.ZoneOffset.UTC),
                        RampUpKeys.RpsChangeEvent.at(2, 1_764_297_001_123_456_789L, java.time.ZoneOffset.UTC)))
                .toJson();
        // vLLM: ints as ints; datetime.isoformat() leaves out zero microseconds
        assertThat(json)
                .contains("\"max_concurrency\": 2, \"ramp_up_strategy\": \"linear\", \"ramp_up_start_rps\": 1,"
                        + " \"ramp_up_end_rps\": 2.5, \"duration\"")
                .contains("\"rps_change_events\": [{\"rps\": 1, \"timestamp\": \"2025-11-28T02:30:00\"},"
                        + " {\"rps\": 2, \"timestamp\": \"2025-11-28T02:30:01.123456\"}], \"mean_ttft_ms\"");
        assertThat(ResultJson.of(CONFIG, RESULT, Map.of()).toJson())
                .doesNotContain("ramp_up")
                .doesNotContain("rps_change_events");
    }
}
