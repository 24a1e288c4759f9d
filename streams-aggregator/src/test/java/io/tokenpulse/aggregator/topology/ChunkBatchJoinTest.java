package io.tokenpulse.aggregator.topology;

import static io.tokenpulse.aggregator.topology.AggregatorTopologyTest.header;
import static io.tokenpulse.aggregator.topology.TopologyFixture.ANCHOR_NS;
import static io.tokenpulse.aggregator.topology.TopologyFixture.MS;
import static io.tokenpulse.aggregator.topology.TopologyFixture.RUN;
import static io.tokenpulse.aggregator.topology.TopologyFixture.key;
import static io.tokenpulse.aggregator.topology.TopologyFixture.success;
import static org.assertj.core.api.Assertions.assertThat;

import io.tokenpulse.schemas.avro.RequestMetrics;
import java.nio.file.Path;
import java.util.Arrays;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A request's events as chunk-batch records join as the same events as chunk records do. */
class ChunkBatchJoinTest {
    /** 150 events over three offset blocks, with uneven gaps so that a swapped pair would show. */
    private static final long[] EVENT_MS = new long[150];

    static {
        for (int seq = 0; seq < EVENT_MS.length; seq++) {
            EVENT_MS[seq] = 100 + 2L * seq + (seq % 3);
        }
    }

    @TempDir
    Path stateDir;

    @TempDir
    Path otherStateDir;

    TopologyFixture f;

    @BeforeEach
    void start() {
        f = new TopologyFixture(stateDir);
        f.runStarted(RUN, 0, 1, ANCHOR_NS);
    }

    @AfterEach
    void stop() {
        f.close();
    }

    @Test
    void batchesGiveTheSameMetricsAsTheSameEventsAsChunks() {
        f.finished(RUN, 0, 0, success(900, 1000, 10, EVENT_MS.length, EVENT_MS));
        // batches that start and end inside blocks and one that spans a whole block and more
        batches(0, 5, 75, 130, EVENT_MS.length);
        RequestMetrics fromBatches = f.requestMetrics.readValue();

        RequestMetrics fromChunks;
        try (TopologyFixture perEvent = new TopologyFixture(otherStateDir)) {
            perEvent.runStarted(RUN, 0, 1, ANCHOR_NS);
            perEvent.finished(RUN, 0, 0, success(900, 1000, 10, EVENT_MS.length, EVENT_MS));
            for (int seq = 0; seq < EVENT_MS.length; seq++) {
                perEvent.chunk(RUN, 0, 0, seq, EVENT_MS[seq] * MS);
            }
            fromChunks = perEvent.requestMetrics.readValue();
        }
        assertThat(fromBatches).isEqualTo(fromChunks);
        assertThat(fromBatches.getItlNs()).hasSize(EVENT_MS.length - 1);
        assertThat(f.requestMetrics.isEmpty()).isTrue();
        assertJoinStateDeleted();
    }

    @Test
    void batchesBeforeTheirFinishAndOutOfOrderWaitForIt() {
        f.batch(RUN, 0, 0, 2, 250 * MS);
        f.batch(RUN, 0, 0, 0, 100 * MS, 150 * MS);
        assertThat(f.requestMetrics.isEmpty()).isTrue();

        f.finished(RUN, 0, 0, success(900, 1000, 10, 3, 100, 150, 250));

        RequestMetrics m = f.requestMetrics.readValue();
        assertThat(m.getTtftNs()).isEqualTo(100 * MS);
        assertThat(m.getItlNs()).containsExactly(50 * MS, 100 * MS);
        assertJoinStateDeleted();
    }

    @Test
    void aRepeatedBatchCountsItsEventsOnce() {
        f.finished(RUN, 0, 0, success(900, 1000, 10, 4, 100, 150, 250, 300));
        f.batch(RUN, 0, 0, 0, 100 * MS, 150 * MS);
        f.batch(RUN, 0, 0, 0, 100 * MS, 150 * MS); // the same batch again: no new event
        f.batch(RUN, 0, 0, 1, 150 * MS, 250 * MS); // one repeat, one new
        assertThat(f.requestMetrics.isEmpty()).as("3 distinct of 4 announced").isTrue();

        f.batch(RUN, 0, 0, 3, 300 * MS);

        assertThat(f.requestMetrics.readValue().getItlNs()).containsExactly(50 * MS, 100 * MS, 50 * MS);
        assertThat(f.requestMetrics.isEmpty()).isTrue();
    }

    @Test
    void aRequestsEventsMayComeAsBatchesAndChunksMixed() {
        f.batch(RUN, 0, 0, 0, 100 * MS, 150 * MS);
        f.chunk(RUN, 0, 0, 2, 250 * MS);
        f.chunk(RUN, 0, 0, 1, 150 * MS); // already in a batch
        f.finished(RUN, 0, 0, success(900, 1000, 10, 5, 100, 150, 250, 300, 420));
        f.batch(RUN, 0, 0, 2, 250 * MS, 300 * MS); // its first event already came as a chunk
        assertThat(f.requestMetrics.isEmpty()).isTrue();

        f.chunk(RUN, 0, 0, 4, 420 * MS);

        RequestMetrics m = f.requestMetrics.readValue();
        assertThat(m.getTtftNs()).isEqualTo(100 * MS);
        assertThat(m.getItlNs()).containsExactly(50 * MS, 100 * MS, 50 * MS, 120 * MS);
        assertJoinStateDeleted();
    }

    @Test
    void anUnreadableBatchGoesToTheDeadLetterTopicCountedUnderItsTopic() {
        byte[] garbage = {4, 5, 6};
        f.rawChunkBatches.pipeInput(key(RUN, 0), garbage);
        f.finished(RUN, 0, 0, success(900, 1000, 10, 2, 100, 150));
        f.batch(RUN, 0, 0, 0, 100 * MS, 150 * MS);

        TestRecord<String, byte[]> dead = f.deadLetters.readRecord();
        assertThat(dead.key()).isEqualTo(key(RUN, 0));
        assertThat(dead.value()).isEqualTo(garbage);
        assertThat(header(dead.headers(), DeadLetters.SOURCE_TOPIC)).isEqualTo("chunk-batches");
        assertThat(f.requestMetrics.readValuesToList()).hasSize(1);
        assertThat(deadLetteredOf("chunk-batches")).isEqualTo(1.0);
        assertThat(deadLetteredOf("chunks")).isZero();
    }

    /** Sends the events from each of {@code starts} up to the next as one batch (the last start is the end). */
    private void batches(int... starts) {
        for (int i = 0; i + 1 < starts.length; i++) {
            long[] offsetsNs = Arrays.stream(EVENT_MS, starts[i], starts[i + 1])
                    .map(ms -> ms * MS)
                    .toArray();
            assertThat(f.requestMetrics.isEmpty()).isTrue();
            f.batch(RUN, 0, 0, starts[i], offsetsNs);
        }
    }

    private void assertJoinStateDeleted() {
        for (String store : RequestJoin.storeNames()) {
            KeyValueStore<String, Object> kv = f.driver.getKeyValueStore(store);
            try (var all = kv.all()) {
                assertThat(all.hasNext()).as(store).isFalse();
            }
        }
    }

    private double deadLetteredOf(String topic) {
        return f.driver.metrics().entrySet().stream()
                .filter(e -> e.getKey().name().equals(DeadLetters.METRIC_OPERATION + "-total"))
                .filter(e -> topic.equals(e.getKey().tags().get(DeadLetters.METRIC_SCOPE + "-id")))
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue())
                .sum();
    }
}
