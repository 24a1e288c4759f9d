package io.tokenpulse.aggregator.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.tokenpulse.aggregator.metrics.GoodputSlo;
import io.tokenpulse.aggregator.metrics.LatencyStats;
import io.tokenpulse.aggregator.metrics.MetricPercentiles;
import io.tokenpulse.aggregator.metrics.MetricStats.PercentileValue;
import io.tokenpulse.aggregator.metrics.MetricsAccumulator;
import io.tokenpulse.aggregator.metrics.PercentileMetrics;
import io.tokenpulse.aggregator.metrics.ReasoningResult;
import io.tokenpulse.aggregator.metrics.RequestReasoning;
import io.tokenpulse.aggregator.metrics.RequestTiming;
import io.tokenpulse.aggregator.metrics.RequestValues;
import io.tokenpulse.aggregator.metrics.RunResult;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fixed raw timings through the whole path (per-request values, accumulator, run result, report) to
 * the exact console text and result file. The expected files were checked against vLLM's own
 * formatting code run by Python on the same per-request values (see the report of this change).
 */
class GoldenReportTest {

    private static final long MS = 1_000_000L;

    private static RequestTiming timing(
            boolean success,
            long scheduledMs,
            long sentMs,
            long lastMs,
            long finishedMs,
            int prompt,
            int n,
            long... eventsMs) {
        long[] events = new long[eventsMs.length];
        for (int i = 0; i < events.length; i++) {
            events[i] = eventsMs[i] * MS;
        }
        return new RequestTiming(
                success, scheduledMs * MS, sentMs * MS, events, lastMs * MS, finishedMs * MS, prompt, n, sentMs * MS);
    }

    // Request 2 waited 200 ms for its send and ended with a usage-only event; request 3 failed.
    private static final List<RequestTiming> TIMINGS = List.of(
            timing(true, 0, 1, 301, 301, 10, 5, 101, 151, 211, 301),
            timing(true, 500, 500, 580, 580, 12, 1, 580),
            timing(true, 1000, 1200, 1500, 1500, 8, 3, 1320, 1370, 1460),
            timing(false, 1500, 1500, 1500, 1600, 9, 0));
    private static final List<String> TEXTS = List.of("Hello world", "\u00e9t\u00e9", "a\"b\n", "");
    private static final List<String> ERRORS = List.of("", "", "", "Internal Server Error");

    /** Not a reasoning model: the golden file has no {@code ttfos}. */
    private static final RequestReasoning NO_REASONING =
            new RequestReasoning(java.util.OptionalLong.empty(), 0, java.util.OptionalInt.empty());

    private static final RunConfig CONFIG = new RunConfig(
            "20250515-134619",
            "vllm",
            "facebook/opt-125m",
            "facebook/opt-125m",
            4,
            4.0,
            1.0,
            OptionalInt.of(2),
            Optional.empty());

    private record Run(RunResult result, List<RequestDetail> details) {}

    private static Run run() {
        GoodputSlo slo = GoodputSlo.parse(List.of("ttft:100", "tpot:60", "e2el:400"));
        MetricsAccumulator acc = new MetricsAccumulator(1 * MS, slo); // origin: the earliest send
        List<RequestDetail> details = new ArrayList<>();
        for (int i = 0; i < TIMINGS.size(); i++) {
            RequestValues values = RequestValues.of(TIMINGS.get(i));
            acc.add(values);
            details.add(RequestDetail.of(values, NO_REASONING, TEXTS.get(i), ERRORS.get(i)));
        }
        long scheduleStartNs = 0;
        RunResult result = RunResult.of(
                acc,
                acc.lastFinishedNs() - scheduleStartNs,
                PercentileMetrics.parse("ttft,tpot,itl,e2el,token_latency"),
                MetricPercentiles.parse("50,90,99.9"));
        return new Run(result, details);
    }

    @Test
    void consoleBlockMatchesGoldenFile() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new ConsoleReport(ConsoleReport.Layout.CURRENT)
                .print(CONFIG, run().result(), new PrintStream(bytes, true, StandardCharsets.UTF_8));
        assertMatchesGolden(bytes.toString(StandardCharsets.UTF_8), "golden-console.txt");
    }

    @Test
    void detailedResultFileMatchesGoldenFile(@TempDir Path dir) throws IOException {
        Run run = run();
        ResultJson json = ResultJson.of(
                        CONFIG, run.result(), ResultJson.parseMetadata(List.of("version=0.3.3", " tp = 1")))
                .withDetails(run.details())
                .inLayout(ConsoleReport.Layout.SEED);
        Path file = ResultFile.path(CONFIG, Optional.of(dir.resolve("results")), Optional.empty());
        ResultFile.write(file, json, false);
        assertThat(file.getFileName().toString()).isEqualTo("vllm-4.0qps-concurrency2-opt-125m-20250515-134619.json");
        assertMatchesGolden(Files.readString(file), "golden-result.json");
    }

    @Test
    void aResultReadInMemoryIsTheResultReadFromItsFile() throws IOException {
        Run run = run();
        ResultJson json = ResultJson.of(CONFIG, run.result(), ResultJson.parseMetadata(List.of("version=0.3.3")))
                .withLabel("lbl")
                .withDetails(run.details());

        BenchResult inMemory = ResultReader.of(json);

        assertThat(inMemory)
                .isEqualTo(
                        ResultReader.read(new com.fasterxml.jackson.databind.ObjectMapper().readTree(json.toJson())));
        assertThat(inMemory.label()).contains("lbl");
        assertThat(inMemory.settings()).containsEntry("version", "0.3.3").doesNotContainKey("completed");
        assertThat(inMemory.completed()).isEqualTo(run.result().completed());
        assertThat(inMemory.ttft().medianMs()).isNotNaN();
        assertThat(inMemory.ttfo().meanMs()).isNaN();
        assertThat(inMemory.requests().ttftsS()).hasSize(run.details().size());
    }

    /** On a mismatch the actual text lands in target/golden-actual/ for a diff. */
    private static void assertMatchesGolden(String actual, String name) throws IOException {
        String expected = ConsoleReportTest.resource(name);
        if (!actual.equals(expected)) {
            Path out = Path.of("target", "golden-actual", name);
            Files.createDirectories(out.getParent());
            Files.writeString(out, actual);
        }
        assertThat(actual).isEqualTo(expected);
    }

    @Test
    void appendResultAddsOneObjectPerLine(@TempDir Path dir) throws IOException {
        ResultJson json = ResultJson.of(CONFIG, run().result(), Map.of());
        Path file = dir.resolve("r.json");
        ResultFile.write(file, json, true);
        ResultFile.write(file, json, true);
        assertThat(Files.readString(file)).isEqualTo(json.toJson() + "\n" + json.toJson());
    }

    @Test
    void withoutSaveDetailedThePerRequestListsAreLeftOut() {
        String text = ResultJson.of(CONFIG, run().result(), Map.of()).toJson();
        assertThat(text)
                .doesNotContain("\"ttfts\"", "\"itls\"", "\"input_lens\"", "\"errors\"")
                .contains("\"request_goodput\": 1.25, ");
    }

    @Test
    void aReasoningRunsKeysComeBeforeTheMetricKeysAndItsTtfoAfterTheSelectedMetrics() {
        ResultJson plain = ResultJson.of(CONFIG, run().result(), Map.of());
        String text = plain.withReasoning(Optional.of(new ReasoningResult(
                        3,
                        6,
                        3,
                        new LatencyStats(3, 250.5, 250, 1.5, List.of(new PercentileValue(99.9, 260.25)), true))))
                .toJson();
        assertThat(text)
                .contains("\"itl_exact\": true, \"reasoning_requests\": 3, \"total_reasoning_tokens\": 6, "
                        + "\"total_answer_tokens\": 3, \"mean_ttft_ms\"")
                .endsWith("\"mean_ttfo_ms\": 250.5, \"median_ttfo_ms\": 250.0, \"std_ttfo_ms\": 1.5, "
                        + "\"p99.9_ttfo_ms\": 260.25}");
        assertThat(plain.withReasoning(Optional.empty()).toJson())
                .as("other runs' files stay vLLM's")
                .isEqualTo(plain.toJson())
                .doesNotContain("reasoning", "ttfo");
    }

    @Test
    void aReasoningRunsDetailedFileHasEachRequestsTtfoBesideItsTtftAndOtherRunsNone() {
        RequestValues thought = RequestValues.of(TIMINGS.get(0));
        RequestDetail answered = RequestDetail.of(
                thought,
                new RequestReasoning(java.util.OptionalLong.of(250 * MS), 2, java.util.OptionalInt.of(2)),
                "",
                "");
        RequestDetail unanswered = RequestDetail.of(thought, NO_REASONING, "", "");
        ResultJson plain = ResultJson.of(CONFIG, run().result(), Map.of());
        ReasoningResult reasoning = new ReasoningResult(
                1, 2, 1, new LatencyStats(1, 250, 250, 0, List.of(new PercentileValue(99, 250)), true));

        String text = plain.withReasoning(Optional.of(reasoning))
                .withDetails(List.of(answered, unanswered))
                .toJson();

        assertThat(text).containsPattern("\"ttfts\": \\[[^]]*], \"ttfos\": \\[0\\.25, 0\\.0], \"itls\"");
        assertThat(plain.withDetails(List.of(answered)).toJson())
                .as("a run where no request thought keeps vLLM's lists")
                .doesNotContain("ttfos");
    }

    @Test
    void undeliveredRecordsAreWrittenWithTheirReasonsBeforeTheMetricKeysAndOnlyWhenSomeWereLost() {
        String lost = ResultJson.of(
                        CONFIG, run().result(), Map.of(), new ResultJson.Delivery(7, Map.of("BUFFER_FULL", 7L)))
                .toJson();
        assertThat(lost)
                .contains("\"itl_exact\": true, \"records_not_delivered\": 7, "
                        + "\"records_not_delivered_by_reason\": {\"BUFFER_FULL\": 7}, \"mean_ttft_ms\"");
        assertThat(ResultJson.of(CONFIG, run().result(), Map.of()).toJson()).doesNotContain("records_not_delivered");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ResultJson.of(
                        CONFIG, run().result(), ResultJson.parseMetadata(List.of("records_not_delivered=0"))))
                .hasMessageContaining("would overwrite a result key");
    }

    @Test
    void theClientsCpuAndTimingAreWrittenAfterTheDeliveryKeysAndOnlyWhenMeasured() {
        ResultJson json = ResultJson.of(
                        CONFIG, run().result(), Map.of(), new ResultJson.Delivery(7, Map.of("BUFFER_FULL", 7L)))
                .withClientCpu(ClientCpu.of(2_500_000_000L, 3_000_000_000L, 10_000_000_000L, 60_000))
                .withClientTiming(ClientTiming.of(0, 8, 12.5, 200, 0.25));
        assertThat(json.toJson())
                .contains("{\"BUFFER_FULL\": 7}, \"client_startup_cpu_s\": 2.5, \"client_cpu_cores\": 0.3, "
                        + "\"client_cpu_us_per_event\": 50.0, \"client_warmup_requests\": 0, \"client_warm_connections\": 8, \"client_send_lag_p99_ms\": 12.5, "
                        + "\"client_io_thread_busy\": 0.25, \"client_limited\": true, \"mean_ttft_ms\"");
        assertThat(ResultJson.of(CONFIG, run().result(), Map.of()).toJson()).doesNotContain("client_");
        org.assertj.core.api.Assertions.assertThatThrownBy(() ->
                        ResultJson.of(CONFIG, run().result(), ResultJson.parseMetadata(List.of("client_cpu_cores=1"))))
                .hasMessageContaining("would overwrite a result key");
    }

    @Test
    void anInterruptedOrIncompleteRunIsMarkedAfterTheDeliveryKeysAndAWholeRunIsNot() {
        String marked = ResultJson.of(
                        CONFIG,
                        run().result(),
                        Map.of(),
                        ResultJson.Delivery.COMPLETE,
                        new ResultJson.Completeness(true, "3 of 40 request metrics"))
                .toJson();
        assertThat(marked)
                .contains("\"itl_exact\": true, \"interrupted\": true, "
                        + "\"incomplete\": \"3 of 40 request metrics\", \"mean_ttft_ms\"");
        assertThat(ResultJson.of(CONFIG, run().result(), Map.of()).toJson())
                .doesNotContain("interrupted", "incomplete");
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> ResultJson.of(CONFIG, run().result(), ResultJson.parseMetadata(List.of("incomplete=no"))))
                .hasMessageContaining("would overwrite a result key");
    }

    @Test
    void theClientsCpuLinesFollowTheBlocksLayout() {
        assertThat(ClientCpu.of(2_500_000_000L, 3_000_000_000L, 10_000_000_000L, 0)
                        .lines())
                .isEqualTo("Client CPU before 1st request (s):       2.50      \n"
                        + "Client CPU during the run (cores):       0.30      \n"
                        + "Client CPU per streamed event (us):      nan       \n");
    }

    @Test
    void infiniteRateIsNamedAndSavedAsInf() {
        RunConfig inf = new RunConfig(
                "20250101-000000",
                "openai-chat",
                "Qwen/Qwen3-8B",
                "Qwen/Qwen3-8B",
                4,
                Double.POSITIVE_INFINITY,
                1.0,
                OptionalInt.empty(),
                Optional.empty());
        assertThat(ResultFile.defaultName(inf)).isEqualTo("openai-chat-infqps-Qwen3-8B-20250101-000000.json");
        assertThat(ResultJson.of(inf, run().result(), Map.of()).toJson())
                .contains("\"request_rate\": \"inf\", \"burstiness\": 1.0, \"max_concurrency\": null, ");
    }

    @Test
    void aLabelStartsTheFileNameAndFollowsBackendInTheJsonAsInCurrentVllm() {
        assertThat(ResultFile.defaultName(CONFIG, "nightly")).startsWith("nightly-");
        assertThat(ResultFile.defaultName(CONFIG, "nightly").substring("nightly".length()))
                .isEqualTo(ResultFile.defaultName(CONFIG)
                        .substring(CONFIG.backend().length()));
        String json = ResultJson.of(CONFIG, run().result(), Map.of())
                .withLabel("nightly")
                .toJson();
        assertThat(json).contains("\"backend\": \"" + CONFIG.backend() + "\", \"label\": \"nightly\", \"model_id\"");
        assertThat(ResultJson.of(CONFIG, run().result(), Map.of()).toJson()).doesNotContain("\"label\"");
    }

    @Test
    void perModelEntriesCarryTheRunsMetricKeys() {
        var ttft = new io.tokenpulse.aggregator.metrics.MetricStats(
                io.tokenpulse.aggregator.metrics.Metric.TTFT,
                2,
                10,
                10,
                0,
                List.of(new io.tokenpulse.aggregator.metrics.MetricStats.PercentileValue(99, 12)),
                true);
        String json = ResultJson.of(CONFIG, run().result(), Map.of())
                .withPerModel(List.of(new ModelResult("sql-lora", 2, 0, List.of(ttft))))
                .toJson();
        assertThat(json)
                .contains("\"per_model\": [{\"model\": \"sql-lora\", \"completed\": 2, \"failed\": 0,"
                        + " \"mean_ttft_ms\": 10.0, \"median_ttft_ms\": 10.0, \"std_ttft_ms\": 0.0,"
                        + " \"p99_ttft_ms\": 12.0}]");
        assertThat(ResultJson.of(CONFIG, run().result(), Map.of()).toJson()).doesNotContain("per_model");
    }

    @Test
    void metadataThatWouldOverwriteAResultKeyIsRejected() {
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> ResultJson.of(CONFIG, run().result(), ResultJson.parseMetadata(List.of("backend=x"))))
                .hasMessage("--metadata key 'backend' would overwrite a result key: rename it");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ResultJson.parseMetadata(List.of("novalue")))
                .hasMessageContaining("write KEY=VALUE");
    }
}
