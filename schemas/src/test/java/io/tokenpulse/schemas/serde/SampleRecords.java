package io.tokenpulse.schemas.serde;

import io.tokenpulse.schemas.avro.Chunk;
import io.tokenpulse.schemas.avro.MetricSummary;
import io.tokenpulse.schemas.avro.PercentileValue;
import io.tokenpulse.schemas.avro.RequestEvent;
import io.tokenpulse.schemas.avro.RequestFinished;
import io.tokenpulse.schemas.avro.RequestMetrics;
import io.tokenpulse.schemas.avro.RequestStarted;
import io.tokenpulse.schemas.avro.RunEvent;
import io.tokenpulse.schemas.avro.RunFinished;
import io.tokenpulse.schemas.avro.RunStarted;
import io.tokenpulse.schemas.avro.RunSummary;
import io.tokenpulse.schemas.avro.ServerSummary;
import io.tokenpulse.schemas.avro.WindowLatency;
import io.tokenpulse.schemas.avro.WindowMetrics;
import java.util.List;
import java.util.Map;

/** One filled-in instance of every generated class, with nullable fields both set and unset. */
final class SampleRecords {
    private SampleRecords() {}

    static Chunk chunk() {
        return Chunk.newBuilder()
                .setRunId("run-1")
                .setShardIndex(0)
                .setRequestIndex(7)
                .setSeq(3)
                .setOffsetNs(125_000_000L)
                .setGapNs(21_000_000L)
                .setArrivedEpochNs(1_700_000_000_123_456_789L)
                .setTokens(2)
                .setBytes(312)
                .build();
    }

    static Chunk chunkWithoutTokens() {
        return Chunk.newBuilder(chunk()).setTokens(null).setSeq(0).setGapNs(0).build();
    }

    static RunStarted runStarted() {
        return RunStarted.newBuilder()
                .setScheduleStartEpochNs(1_700_000_000_000_000_000L)
                .setBackend("vllm")
                .setModelId("Qwen/Qwen3-8B")
                .setTokenizerId("Qwen/Qwen3-8B")
                .setEndpointUrl("http://127.0.0.1:8000/v1/completions")
                .setNumPrompts(null)
                .setRequestRate(Double.POSITIVE_INFINITY)
                .setBurstiness(1.0)
                .setMaxConcurrency(64)
                .setPercentileMetrics("ttft,tpot,itl")
                .setMetricPercentiles("99")
                .setGoodput("ttft:200 tpot:50")
                .setConfigJson("{\"num_prompts\":null}")
                .setTokenpulseVersion("0.1.0")
                .build();
    }

    static RunFinished runFinished() {
        return RunFinished.newBuilder()
                .setFinishedEpochNs(1_700_000_060_000_000_000L)
                .setRequestsStarted(1000)
                .setRequestsSucceeded(998)
                .setRequestsFailed(2)
                .setChunkEvents(256_000)
                .setRecordsNotDelivered(0)
                .setServerMetricRecords(5_400L)
                .build();
    }

    static RunEvent runEventStarted() {
        return RunEvent.newBuilder()
                .setRunId("run-1")
                .setShardIndex(0)
                .setShardCount(2)
                .setEvent(runStarted())
                .build();
    }

    static RunEvent runEventFinished() {
        return RunEvent.newBuilder(runEventStarted())
                .setShardIndex(1)
                .setEvent(runFinished())
                .build();
    }

    static RequestStarted requestStarted() {
        return RequestStarted.newBuilder()
                .setPromptLen(1024)
                .setExpectedOutputLen(128)
                .setScheduledOffsetNs(5_000_000L)
                .setPermitOffsetNs(5_100_000L)
                .setSentOffsetNs(5_200_000L)
                .setConnectNs(0)
                .build();
    }

    static RequestFinished requestFinished() {
        return RequestFinished.newBuilder()
                .setSuccess(true)
                .setHttpStatus(200)
                .setError("")
                .setPromptLen(1024)
                .setOutputTokens(128)
                .setUsagePromptTokens(1024)
                .setUsageCompletionTokens(null)
                .setChunkEvents(128)
                .setScheduledOffsetNs(5_000_000L)
                .setPermitOffsetNs(5_100_000L)
                .setSentOffsetNs(5_200_000L)
                .setConnectNs(1_500_000L)
                .setFirstNs(80_000_000L)
                .setLastNs(2_080_000_000L)
                .setFinishedOffsetNs(2_085_200_000L)
                .setGeneratedText("Shall I compare thee \uD83C\uDF1E to a summer's day?")
                .build();
    }

    static RequestEvent requestEventStarted() {
        return RequestEvent.newBuilder()
                .setRunId("run-1")
                .setShardIndex(0)
                .setRequestIndex(7)
                .setRequestId("req-7")
                .setEvent(requestStarted())
                .build();
    }

    static RequestEvent requestEventFinished() {
        return RequestEvent.newBuilder(requestEventStarted())
                .setEvent(requestFinished())
                .build();
    }

    static RequestMetrics requestMetrics() {
        return RequestMetrics.newBuilder()
                .setRunId("run-1")
                .setShardIndex(0)
                .setRequestIndex(7)
                .setRequestId("req-7")
                .setSuccess(true)
                .setHttpStatus(200)
                .setError("")
                .setPromptLen(1024)
                .setOutputTokens(3)
                .setTtftNs(80_000_000L)
                .setE2elNs(120_000_000L)
                .setTpotNs(20_000_000.0)
                .setTokenLatencyNs(40_000_000.0)
                .setQueueDelayNs(200_000L)
                .setConnectNs(0)
                .setItlNs(List.of(19_000_000L, 21_000_000L))
                .setSentEpochNs(1_700_000_000_005_200_000L)
                .setFinishedEpochNs(1_700_000_000_125_200_000L)
                .setGeneratedText(null)
                .build();
    }

    static WindowLatency windowLatency() {
        return WindowLatency.newBuilder()
                .setMetric("ttft")
                .setCount(10)
                .setMeanMs(81.5)
                .setMedianMs(80.0)
                .setP90Ms(95.25)
                .setP99Ms(99.9)
                .setStdMs(4.75)
                .build();
    }

    static WindowMetrics windowMetrics() {
        return WindowMetrics.newBuilder()
                .setRunId("run-1")
                .setWindowStartEpochMs(1_700_000_000_000L)
                .setWindowEndEpochMs(1_700_000_010_000L)
                .setCompleted(10)
                .setFailed(1)
                .setInputTokens(10_240)
                .setOutputTokens(1_280)
                .setRequestThroughput(1.0)
                .setOutputThroughput(128.0)
                .setTotalTokenThroughput(1152.0)
                .setLatencies(List.of(windowLatency()))
                .build();
    }

    static PercentileValue percentileValue() {
        return PercentileValue.newBuilder().setPercentile(99.0).setValueMs(97.3).build();
    }

    static MetricSummary metricSummary() {
        return MetricSummary.newBuilder()
                .setMetric("itl")
                .setMeanMs(20.1)
                .setMedianMs(19.8)
                .setStdMs(1.2)
                .setPercentiles(List.of(percentileValue()))
                .build();
    }

    static RunSummary runSummary() {
        return RunSummary.newBuilder()
                .setRunId("run-1")
                .setDate("20250101-120000")
                .setBackend("vllm")
                .setModelId("Qwen/Qwen3-8B")
                .setTokenizerId("Qwen/Qwen3-8B")
                .setNumPrompts(1000)
                .setRequestRate(Double.POSITIVE_INFINITY)
                .setBurstiness(1.0)
                .setMaxConcurrency(null)
                .setDurationNs(60_000_000_000L)
                .setCompleted(998)
                .setFailed(2)
                .setTotalInputTokens(1_021_952)
                .setTotalOutputTokens(127_744)
                .setRequestThroughput(16.63)
                .setRequestGoodput(null)
                .setOutputThroughput(2129.07)
                .setTotalTokenThroughput(19161.6)
                .setMaxOutputTokensPerS(2400.0)
                .setMaxConcurrentRequests(64)
                .setItlExact(false)
                .setMetrics(List.of(metricSummary()))
                .setErrors(Map.of("HTTP 500", 2L))
                .setShards(2)
                .setRecordsNotDelivered(0)
                .setServer(ServerSummary.newBuilder()
                        .setServerMeanRunning(31.5)
                        .setServerPeakKvCacheUsage(0.82)
                        .setServerTtftGapMs(3.25)
                        .build())
                .build();
    }
}
