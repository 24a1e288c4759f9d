package io.tokenpulse.aggregator.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.tokenpulse.aggregator.metrics.GoodputSlo;
import io.tokenpulse.aggregator.metrics.MetricsAccumulator;
import io.tokenpulse.aggregator.metrics.ServerSample;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The window store's values across the server series' arrival. */
class WindowRecordsTest {

    @Test
    void aWindowStoredBeforeTheServerSeriesReadsWithAnEmptyServerPart() {
        MetricsAccumulator before = new MetricsAccumulator(0, GoodputSlo.NONE, WindowRecords.WINDOW_EXACT_LIMIT);

        WindowRecords.State read = WindowRecords.serde().deserializer().deserialize("t", before.toBytes());

        assertThat(read.requests().completed()).isZero();
        assertThat(read.server().values()).isEmpty();
    }

    @Test
    void bothPartsSurviveTheStore() {
        WindowRecords.State state = WindowRecords.empty();
        state.server()
                .add(new ServerSample(
                        "http://s/metrics", 1, "vllm:num_requests_waiting", Map.of(), 3, null, List.of()));

        byte[] bytes = WindowRecords.serde().serializer().serialize("t", state);
        WindowRecords.State read = WindowRecords.serde().deserializer().deserialize("t", bytes);

        assertThat(read.server().values()).containsEntry("server_mean_waiting", 3.0);
        assertThat(read.requests().toBytes()).isEqualTo(state.requests().toBytes());
    }
}
