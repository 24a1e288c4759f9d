package io.tokenpulse.aggregator.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.tokenpulse.aggregator.metrics.GoodputSlo;
import io.tokenpulse.aggregator.metrics.MetricsAccumulator;
import io.tokenpulse.aggregator.metrics.ReasoningResult;
import io.tokenpulse.aggregator.metrics.RequestReasoning;
import io.tokenpulse.aggregator.metrics.RequestTiming;
import io.tokenpulse.aggregator.metrics.RequestValues;
import io.tokenpulse.aggregator.metrics.ServerSample;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The window store's values across the server series' and the reasoning part's arrival. */
class WindowRecordsTest {

    @Test
    void aWindowStoredBeforeTheServerSeriesReadsWithAnEmptyServerPart() {
        MetricsAccumulator before = new MetricsAccumulator(0, GoodputSlo.NONE, WindowRecords.WINDOW_EXACT_LIMIT);

        WindowRecords.State read = WindowRecords.serde().deserializer().deserialize("t", before.toBytes());

        assertThat(read.requests().completed()).isZero();
        assertThat(read.server().values()).isEmpty();
        assertThat(read.reasoning().result(List.of(99.0))).isEmpty();
    }

    @Test
    void aWindowStoredBeforeTheReasoningPartReadsWithoutTtfo() throws Exception {
        WindowRecords.State state = WindowRecords.empty();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            state.requests().writeTo(out);
            state.server().write(out);
        }

        WindowRecords.State read = WindowRecords.serde().deserializer().deserialize("t", bytes.toByteArray());

        assertThat(read.reasoning().result(List.of(99.0))).isEmpty();
    }

    @Test
    void everyPartSurvivesTheStore() {
        WindowRecords.State state = WindowRecords.empty();
        // sent at 0, events at 100..400 ms: 4 output tokens, the answer from the third
        RequestValues request = RequestValues.of(new RequestTiming(
                true,
                0,
                0,
                new long[] {100_000_000L, 200_000_000L, 300_000_000L, 400_000_000L},
                400_000_000L,
                400_000_000L,
                5,
                4,
                0));
        state.reasoning().add(request, new RequestReasoning(OptionalLong.of(300_000_000L), 2, OptionalInt.of(2)));
        state.server()
                .add(new ServerSample(
                        "http://s/metrics", 1, "vllm:num_requests_waiting", Map.of(), 3, null, List.of()));

        byte[] bytes = WindowRecords.serde().serializer().serialize("t", state);
        WindowRecords.State read = WindowRecords.serde().deserializer().deserialize("t", bytes);

        assertThat(read.server().values()).containsEntry("server_mean_waiting", 3.0);
        assertThat(read.requests().toBytes()).isEqualTo(state.requests().toBytes());
        ReasoningResult reasoning = read.reasoning().result(List.of(99.0)).orElseThrow();
        assertThat(reasoning.ttfo().meanMs()).isEqualTo(300.0);
        assertThat(reasoning.answerTokens()).isEqualTo(2);
    }

    private static io.tokenpulse.schemas.avro.RequestMetrics request(int index, boolean probe, Integer cached) {
        RequestValues values = RequestValues.of(new RequestTiming(
                        true, 0, 0, new long[] {100_000_000L, 200_000_000L}, 200_000_000L, 200_000_000L, 20, 2, 0))
                .withCachedTokens(cached == null ? OptionalInt.empty() : OptionalInt.of(cached));
        return io.tokenpulse.aggregator.records.RequestMetricsMapper.record(values)
                .setRunId("r")
                .setShardIndex(0)
                .setRequestIndex(index)
                .setRequestId("id" + index)
                .setHttpStatus(200)
                .setError("")
                .setConnectNs(0)
                .setProbe(probe)
                .build();
    }

    @Test
    void aWindowCountsCachedTokensAndLeavesProbesOut() {
        WindowRecords.State state = WindowRecords.empty();
        WindowRecords.add(state, new RunWindows.Request(request(0, false, 5)));
        WindowRecords.add(state, new RunWindows.Request(request(1, false, null)));
        WindowRecords.add(state, new RunWindows.Request(request(2, true, 20)));

        var record = WindowRecords.toRecord("r", 0, 10_000, state);

        assertThat(record.getCompleted())
                .as("the probe is not a request of the window")
                .isEqualTo(2);
        assertThat(record.getCachedTokens()).isEqualTo(5);
        // 5 cached of the 20 prompt tokens of the one request that reported it
        assertThat(record.getPrefixCacheHitRate()).isEqualTo(0.25);
    }
}
