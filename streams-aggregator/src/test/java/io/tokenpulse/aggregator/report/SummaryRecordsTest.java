package io.tokenpulse.aggregator.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tokenpulse.schemas.avro.MetricSummary;
import io.tokenpulse.schemas.avro.PercentileValue;
import io.tokenpulse.schemas.avro.RequestMetrics;
import io.tokenpulse.schemas.avro.RunSummary;
import io.tokenpulse.schemas.avro.ShardClock;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SummaryRecordsTest {

    private static MetricSummary metric(String name, double mean, double median, double p99) {
        return new MetricSummary(name, 4762L, mean, median, 0.0, List.of(new PercentileValue(99.0, p99)));
    }

    /** The run-summary record a run like vLLM's 20-minute run (testdata/vllm) produces. */
    private static RunSummary seed000Summary() {
        return RunSummary.newBuilder()
                .setRunId("r1")
                .setDate("20250515-134619")
                .setBackend("vllm")
                .setModelId("facebook/opt-6.7b")
                .setTokenizerId("facebook/opt-6.7b")
                .setNumPrompts(4800)
                .setRequestRate(4.0)
                .setBurstiness(1.0)
                .setMaxConcurrency(null)
                .setDurationNs(1_200_210_000_000L)
                .setCompleted(4762)
                .setFailed(0)
                .setTotalInputTokens(1_083_600)
                .setTotalOutputTokens(1_108_608)
                .setRequestThroughput(3.97)
                .setRequestGoodput(null)
                .setOutputThroughput(923.68)
                .setTotalTokenThroughput(1826.52)
                .setMaxOutputTokensPerS(1234.0)
                .setMaxConcurrentRequests(37)
                .setItlExact(true)
                .setMetrics(List.of(
                        metric("ttft", 98.30, 86.98, 248.21),
                        metric("tpot", 39.74, 38.43, 73.69),
                        metric("itl", 71.59, 59.64, 256.77),
                        metric("e2el", 8663.06, 5606.85, 41893.83),
                        metric("token_latency", 41.71, 39.85, 82.11)))
                .setErrors(Map.of())
                .setShards(1)
                .setRecordsNotDelivered(0)
                .build();
    }

    @Test
    void theBlockPrintedFromASummaryRecordIsSeed000s() throws Exception {
        RunSummary summary = seed000Summary();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new ConsoleReport(ConsoleReport.Layout.SEED)
                .print(
                        SummaryRecords.config(summary),
                        SummaryRecords.result(summary),
                        new PrintStream(bytes, true, StandardCharsets.UTF_8));
        assertThat(bytes.toString(StandardCharsets.UTF_8)).isEqualTo(ConsoleReportTest.resource("seed000-block.txt"));
    }

    @Test
    void aRunOfSeveralShardsSaysHowManyTookPartWhichIsMissingAndTheirClocks() throws Exception {
        RunSummary summary = seed000Summary();
        summary.setShards(2);
        summary.setShardCount(2);
        summary.setMissingShards(List.of(1));
        summary.setShardClocks(List.of(new ShardClock(0, 0.5, 1.5), new ShardClock(1, -12.25, 2.0)));

        assertThat(SummaryRecords.shards(summary).lines())
                .isEqualTo("Shards: 2 of 2 reported, 1 finished; missing: shard 1 (no RunStarted or RunFinished:"
                        + " killed mid-run, or cut off from Kafka)\n"
                        + "Shard clocks minus the broker's: shard 0 +0.5 ms (± 1.5), shard 1 -12.3 ms (± 2.0)\n");
        JsonNode json = new ObjectMapper()
                .readTree(SummaryRecords.resultJson(summary, List.of(), Map.of(), null, false)
                        .toJson());
        assertThat(json.path("shards").asInt()).isEqualTo(2);
        assertThat(json.path("shard_count").asInt()).isEqualTo(2);
        assertThat(json.path("missing_shards").toString()).isEqualTo("[1]");
        assertThat(json.path("shard_clock_offsets").toString())
                .isEqualTo("[{\"shard\":0,\"offset_ms\":0.5,\"uncertainty_ms\":1.5},"
                        + "{\"shard\":1,\"offset_ms\":-12.25,\"uncertainty_ms\":2.0}]");
    }

    @Test
    void aRunOfOneShardKeepsVllmsKeysAndLines() throws Exception {
        RunSummary summary = seed000Summary();
        assertThat(SummaryRecords.shards(summary).lines()).isEmpty();
        JsonNode json = new ObjectMapper()
                .readTree(SummaryRecords.resultJson(summary, List.of(), Map.of(), null, false)
                        .toJson());
        assertThat(json.has("shards")).isFalse();
        assertThat(json.has("shard_count")).isFalse();
        assertThat(json.has("missing_shards")).isFalse();
        assertThat(json.has("shard_clock_offsets")).isFalse();
    }

    @Test
    void theSummarysRtfxIsTheResultFilesKeyAfterThePeakConcurrency() throws Exception {
        RunSummary summary = seed000Summary();
        assertThat(SummaryRecords.resultJson(summary, List.of(), Map.of(), null, false)
                        .toJson())
                .as("vLLM writes 0.0 for a run without audio")
                .contains("\"max_concurrent_requests\": 37, \"rtfx\": 0.0, ");
        summary.setRtfx(0.75);
        assertThat(SummaryRecords.result(summary).rtfx()).isEqualTo(0.75);
        assertThat(new ObjectMapper()
                        .readTree(SummaryRecords.resultJson(summary, List.of(), Map.of(), null, false)
                                .toJson())
                        .path("rtfx")
                        .asDouble())
                .isEqualTo(0.75);
    }

    @Test
    void detailedEntryIsInSecondsAndAFailureCountsNoOutputTokens() {
        RequestMetrics failed = RequestMetrics.newBuilder()
                .setRunId("r1")
                .setShardIndex(0)
                .setRequestIndex(3)
                .setRequestId("benchmark-serving3")
                .setSuccess(false)
                .setHttpStatus(500)
                .setError("HTTP 500: boom")
                .setPromptLen(80)
                .setOutputTokens(7)
                .setTtftNs(250_000_000L)
                .setE2elNs(null)
                .setTpotNs(null)
                .setTokenLatencyNs(null)
                .setQueueDelayNs(0)
                .setConnectNs(0)
                .setItlNs(List.of(20_000_000L, 30_000_000L))
                .setSentEpochNs(0)
                .setFinishedEpochNs(1)
                .setGeneratedText(null)
                .build();
        RequestDetail detail = SummaryRecords.detail(failed);
        assertThat(detail.inputLen()).isEqualTo(80);
        assertThat(detail.outputLen()).isZero();
        assertThat(detail.ttftS()).isEqualTo(0.25);
        assertThat(detail.itlS()).containsExactly(0.02, 0.03);
        assertThat(detail.generatedText()).isEmpty();
        assertThat(detail.error()).isEqualTo("HTTP 500: boom");
    }
}
