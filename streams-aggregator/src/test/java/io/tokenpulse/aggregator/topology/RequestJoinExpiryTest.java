package io.tokenpulse.aggregator.topology;

import static io.tokenpulse.aggregator.topology.TopologyFixture.ANCHOR_NS;
import static io.tokenpulse.aggregator.topology.TopologyFixture.MS;
import static io.tokenpulse.aggregator.topology.TopologyFixture.RUN;
import static io.tokenpulse.aggregator.topology.TopologyFixture.key;
import static io.tokenpulse.aggregator.topology.TopologyFixture.success;
import static org.assertj.core.api.Assertions.assertThat;

import io.tokenpulse.schemas.avro.RequestEvent;
import io.tokenpulse.schemas.avro.RequestFinished;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Join state that can never complete expires after the join TTL of stream time (record timestamps). */
class RequestJoinExpiryTest {
    private static final long T0_MS = 1_800_000_000_000L;
    private static final long TTL_MS = StreamsSettings.DEFAULT_JOIN_STATE_TTL.toMillis();
    private static final long MINUTE_MS = Duration.ofMinutes(1).toMillis();

    @TempDir
    Path stateDir;

    TopologyFixture f;

    @BeforeEach
    void start() {
        f = new TopologyFixture(stateDir);
        f.runStarted(RUN, 0, 1, ANCHOR_NS); // the summarizer emits a request once its shard started
    }

    @AfterEach
    void stop() {
        f.close();
    }

    /** Request 0 of {@link #RUN} complete at {@link #T0_MS}: emitted, its state deleted. */
    private void emitRequest0() {
        f.finishedAt(T0_MS, RUN, 0, success(900, 1000, 10, 2, 100, 150));
        f.chunkAt(T0_MS, RUN, 0, 0, 100 * MS);
        f.chunkAt(T0_MS, RUN, 0, 1, 150 * MS);
        assertThat(f.requestMetrics.readValuesToList()).hasSize(1);
    }

    /** Stream time moves on with another request's chunk, which is young and stays. */
    private void streamTimeReaches(long timestampMs) {
        f.chunkAt(timestampMs, RUN, 9, 0, 0);
    }

    @Test
    void aChunkArrivingAfterItsRequestWasEmittedExpiresIntoTheDeadLetterTopic() {
        emitRequest0();
        f.chunkAt(T0_MS + MINUTE_MS, RUN, 0, 2, 200 * MS); // late: its request is already out
        assertThat(keysIn(RequestJoin.PROGRESS_STORE)).containsExactly(key(RUN, 0));

        streamTimeReaches(T0_MS + MINUTE_MS + TTL_MS + MINUTE_MS);

        TestRecord<String, byte[]> dead = f.deadLetters.readRecord();
        assertThat(dead.key()).isEqualTo(key(RUN, 0));
        assertThat(dead.value()).isEmpty();
        assertThat(header(dead.headers(), DeadLetters.SOURCE_TOPIC)).isEqualTo("chunks");
        assertThat(header(dead.headers(), DeadLetters.REASON))
                .contains("1 chunks without a pending finish")
                .contains("PT30M of stream time");
        assertThat(f.deadLetters.isEmpty()).isTrue();
        assertThat(f.requestMetrics.isEmpty()).isTrue();
        for (String store : new String[] {RequestJoin.OFFSETS_STORE, RequestJoin.PROGRESS_STORE}) {
            assertThat(keysIn(store)).as(store).allSatisfy(k -> assertThat(k).startsWith(key(RUN, 9)));
        }
        assertThat(deadLetteredTotal()).isEqualTo(1.0);
    }

    @Test
    void aBatchArrivingAfterItsRequestWasEmittedExpiresCountedUnderTheChunksTopic() {
        emitRequest0();
        // late: its request is out and its state gone, so none of the three is known any more
        f.batchAt(T0_MS + MINUTE_MS, RUN, 0, 1, 150 * MS, 200 * MS, 260 * MS);

        streamTimeReaches(T0_MS + MINUTE_MS + TTL_MS + MINUTE_MS);

        TestRecord<String, byte[]> dead = f.deadLetters.readRecord();
        assertThat(dead.key()).isEqualTo(key(RUN, 0));
        assertThat(dead.value()).isEmpty();
        assertThat(header(dead.headers(), DeadLetters.SOURCE_TOPIC)).isEqualTo("chunks");
        assertThat(header(dead.headers(), DeadLetters.REASON)).contains("3 chunks without a pending finish");
        assertThat(f.deadLetters.isEmpty()).isTrue();
        assertThat(keysIn(RequestJoin.PROGRESS_STORE)).containsExactly(key(RUN, 9));
        assertThat(deadLetteredTotal()).isEqualTo(1.0);
    }

    @Test
    void aFinishWhoseChunksNeverAllArriveExpiresWithItsOwnBytes() {
        f.finishedAt(T0_MS, RUN, 1, success(900, 1000, 10, 3, 100, 150, 250));
        f.chunkAt(T0_MS, RUN, 1, 0, 100 * MS); // 1 of the 3 announced chunks

        streamTimeReaches(T0_MS + TTL_MS + 2 * MINUTE_MS);

        TestRecord<String, byte[]> dead = f.deadLetters.readRecord();
        assertThat(dead.key()).isEqualTo(key(RUN, 1));
        assertThat(header(dead.headers(), DeadLetters.SOURCE_TOPIC)).isEqualTo("requests");
        assertThat(header(dead.headers(), DeadLetters.REASON)).contains("the finish announced 3 chunks, 1 arrived");
        RequestEvent finish = f.topics.requests().valueSerde().deserializer().deserialize("requests", dead.value());
        assertThat(((RequestFinished) finish.getEvent()).getChunkEvents()).isEqualTo(3);
        assertThat(keysIn(RequestJoin.FINISHED_STORE)).isEmpty();
        assertThat(deadLetteredTotal()).isEqualTo(1.0);
    }

    @Test
    void stateYoungerThanTheTtlStaysAndStillCompletes() {
        f.finishedAt(T0_MS, RUN, 1, success(900, 1000, 10, 2, 100, 150));
        f.chunkAt(T0_MS, RUN, 1, 0, 100 * MS);

        streamTimeReaches(T0_MS + TTL_MS - MINUTE_MS);
        assertThat(f.deadLetters.isEmpty()).isTrue();

        f.chunkAt(T0_MS + TTL_MS - MINUTE_MS, RUN, 1, 1, 150 * MS);
        assertThat(f.requestMetrics.readValuesToList()).hasSize(1);
        assertThat(keysIn(RequestJoin.PROGRESS_STORE)).containsExactly(key(RUN, 9));
    }

    private List<String> keysIn(String store) {
        KeyValueStore<String, Object> kv = f.driver.getKeyValueStore(store);
        List<String> keys = new ArrayList<>();
        try (var all = kv.all()) {
            all.forEachRemaining(entry -> keys.add(entry.key));
        }
        return keys;
    }

    private double deadLetteredTotal() {
        return f.driver.metrics().entrySet().stream()
                .filter(e -> e.getKey().name().equals(DeadLetters.METRIC_OPERATION + "-total"))
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue())
                .sum();
    }

    private static String header(Headers headers, String name) {
        return new String(headers.lastHeader(name).value(), StandardCharsets.UTF_8);
    }
}
