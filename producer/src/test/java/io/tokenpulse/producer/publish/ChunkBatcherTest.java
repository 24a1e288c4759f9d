package io.tokenpulse.producer.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tokenpulse.schemas.avro.Chunk;
import io.tokenpulse.schemas.avro.ChunkBatch;
import io.tokenpulse.schemas.serde.AvroSerializer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

class ChunkBatcherTest {

    private static final int SCHEMA_ID = 0x01020304;
    private static final String TOPIC = "tokenpulse.chunk-batches";
    private static final long INTERVAL_NS = 100_000_000;

    private final AvroSerializer<ChunkBatch> serializer =
            new AvroSerializer<>(FixedIdRegistry.of(SCHEMA_ID), ChunkBatch.class, TOPIC + "-value", true);
    private final ChunkBatcher batcher = new ChunkBatcher(serializer, TOPIC, INTERVAL_NS);
    private final Recorded out = new Recorded();

    @Test
    void writesTheSameBytesAsTheTopicsSerializer() {
        String run = "läuft-日本-🚀";
        List<Chunk> chunks = IntStream.range(0, 300)
                .mapToObj(seq -> new Chunk(
                        run,
                        3,
                        123_456,
                        seq,
                        seq == 299 ? Long.MAX_VALUE : 50_000_000L + seq * 20_000_001L,
                        seq == 0 ? 0 : -5L,
                        1_764_270_000_000_000_000L + seq,
                        seq % 3 == 0 ? null : seq % 2 == 0 ? Integer.MIN_VALUE : seq,
                        seq * 1000))
                .toList();
        chunks.forEach(c -> batcher.add(c, 0, out));
        batcher.flushAll(out);

        assertThat(out.batches).hasSize(1);
        Recorded.Batch batch = out.batches.get(0);
        assertThat(batch.key()).isEqualTo(run + "/123456");
        assertThat(batch.events()).isEqualTo(300);
        assertThat(batch.value()).isEqualTo(serializer.serialize(TOPIC, expected(chunks)));
    }

    @Test
    void aBatchClosesAtTheEndOfTheSlotItsFirstEventCameIn() {
        batcher.add(chunk(1, 0), 10_000_000, out);
        batcher.add(chunk(1, 1), 60_000_000, out);
        batcher.add(chunk(2, 0), 90_000_000, out); // another request, same slot: closes with it
        batcher.flushDue(INTERVAL_NS - 1, out);
        assertThat(out.batches).isEmpty();
        assertThat(batcher.nextDueNs()).isEqualTo(INTERVAL_NS);
        assertThat(batcher.openEvents()).isEqualTo(3);

        batcher.flushDue(INTERVAL_NS, out);
        batcher.add(chunk(1, 2), INTERVAL_NS + 5, out);

        assertThat(out.batches).extracting(Recorded.Batch::events).containsExactly(2, 1);
        assertThat(batcher.nextDueNs()).isEqualTo(2 * INTERVAL_NS);
        assertThat(batcher.openEvents()).isEqualTo(1);
        batcher.flushAll(out);
        assertThat(out.batches.get(2).value()).isEqualTo(serializer.serialize(TOPIC, expected(List.of(chunk(1, 2)))));
        assertThat(batcher.nextDueNs()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void slotsAreMultiplesOfTheIntervalOnTheSendersClockNegativeOnesToo() {
        assertThat(batcher.slotEndNs(0)).isEqualTo(INTERVAL_NS);
        assertThat(batcher.slotEndNs(INTERVAL_NS - 1)).isEqualTo(INTERVAL_NS);
        assertThat(batcher.slotEndNs(INTERVAL_NS)).isEqualTo(2 * INTERVAL_NS);
        assertThat(batcher.slotEndNs(-1)).isEqualTo(0);
        assertThat(batcher.slotEndNs(-INTERVAL_NS)).isEqualTo(0);
    }

    @Test
    void withAnIntervalOfZeroABatchIsDueWhenItOpensAndThereAreNoSlots() {
        ChunkBatcher unslotted = new ChunkBatcher(serializer, TOPIC, 0);
        assertThat(unslotted.slotEndNs(12_345)).isEqualTo(12_345);

        unslotted.add(chunk(1, 0), 12_345, out);
        assertThat(unslotted.nextDueNs()).isEqualTo(12_345);
        unslotted.flushDue(12_345, out);

        assertThat(out.batches).extracting(Recorded.Batch::events).containsExactly(1);
    }

    @Test
    void aFinishClosesItsOwnRequestsBatchOnly() {
        batcher.add(chunk(1, 0), 0, out);
        batcher.add(chunk(2, 0), 0, out);
        batcher.flushRequest("run-1", 2, out);
        batcher.flushRequest("run-other", 1, out);

        assertThat(out.batches).extracting(Recorded.Batch::key).containsExactly("run-1/2");
        assertThat(batcher.openEvents()).isEqualTo(1);
    }

    @Test
    void anEventThatDoesNotFollowStartsANewBatchWithItsOwnGap() {
        batcher.add(chunk(1, 0), 0, out);
        batcher.add(chunk(1, 1), 0, out);
        batcher.add(chunk(1, 3), 0, out); // seq 2 was lost on the way
        batcher.flushAll(out);

        assertThat(out.batches).extracting(Recorded.Batch::events).containsExactly(2, 1);
        assertThat(out.batches.get(1).value()).isEqualTo(serializer.serialize(TOPIC, expected(List.of(chunk(1, 3)))));
    }

    @Test
    void aFullBatchClosesAndRequestsSharingASlotKeepTheirOwnKeys() {
        for (int seq = 0; seq <= ChunkBatcher.MAX_EVENTS; seq++) {
            batcher.add(chunk(5, seq), 0, out);
        }
        batcher.add(chunk(5 + 4096, 0), 0, out);
        batcher.flushAll(out);

        assertThat(out.batches)
                .extracting(Recorded.Batch::key, Recorded.Batch::events)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("run-1/5", ChunkBatcher.MAX_EVENTS),
                        org.assertj.core.groups.Tuple.tuple("run-1/5", 1),
                        org.assertj.core.groups.Tuple.tuple("run-1/4101", 1));
    }

    @Test
    void aBatchOfAnEarlierRunKeepsThatRunsKey() {
        batcher.add(chunk(1, 0), 0, out);
        batcher.add(new Chunk("run-2", 0, 9, 0, 1L, 0L, 1L, null, 1), 0, out);
        batcher.flushAll(out);

        assertThat(out.batches).extracting(Recorded.Batch::key).containsExactly("run-1/1", "run-2/9");
        assertThat(out.batches.get(0).value()).isEqualTo(serializer.serialize(TOPIC, expected(List.of(chunk(1, 0)))));
    }

    @Test
    void aChunkWithoutRunIdFailsAsTheSerializerWould() {
        assertThatThrownBy(() -> batcher.add(new Chunk(), 0, out)).isInstanceOf(SerializationException.class);
        assertThat(batcher.openEvents()).isZero();
    }

    @Test
    void anotherSerializerOrSchemaIsUsedAsItIs() {
        List<ChunkBatch> serialized = new ArrayList<>();
        ChunkBatcher viaSerializer = new ChunkBatcher(
                (topic, batch) -> {
                    serialized.add(batch);
                    return new byte[] {42};
                },
                TOPIC,
                INTERVAL_NS);
        viaSerializer.add(chunk(1, 0), 0, out);
        viaSerializer.add(chunk(1, 1), 0, out);
        viaSerializer.flushAll(out);

        assertThat(serialized).containsExactly(expected(List.of(chunk(1, 0), chunk(1, 1))));
        assertThat(out.batches.get(0).value()).containsExactly(42);

        assertThat(ChunkBatcher.supports(ChunkBatch.getClassSchema())).isTrue();
        Schema withNewField = SchemaBuilder.record("ChunkBatch")
                .fields()
                .requiredString("run_id")
                .requiredInt("shard_index")
                .requiredInt("request_index")
                .requiredInt("first_seq")
                .requiredLong("first_gap_ns")
                .requiredLong("first_arrived_epoch_ns")
                .name("offsets_ns")
                .type()
                .array()
                .items()
                .longType()
                .noDefault()
                .name("tokens")
                .type()
                .array()
                .items()
                .nullable()
                .intType()
                .noDefault()
                .name("bytes")
                .type()
                .array()
                .items()
                .intType()
                .noDefault()
                .optionalString("added")
                .endRecord();
        assertThat(ChunkBatcher.supports(withNewField)).isFalse();
    }

    @Test
    void aBatchThatCannotBeWrittenIsCountedWithItsEvents() {
        ChunkBatcher failing = new ChunkBatcher(
                (topic, batch) -> {
                    throw new SerializationException("registry away");
                },
                TOPIC,
                INTERVAL_NS);
        failing.add(chunk(1, 0), 0, out);
        failing.add(chunk(1, 1), 0, out);
        failing.flushAll(out);

        assertThat(out.batches).isEmpty();
        assertThat(out.unwritableEvents).isEqualTo(2);
    }

    private static Chunk chunk(int request, int seq) {
        return new Chunk("run-1", 0, request, seq, 1_000L + seq * 7L, seq == 0 ? 0 : 7L, 99L + seq * 7L, seq, 180);
    }

    /** The record the chunk-batches serializer writes for these consecutive chunks of one request. */
    private static ChunkBatch expected(List<Chunk> chunks) {
        Chunk first = chunks.get(0);
        return new ChunkBatch(
                first.getRunId(),
                first.getShardIndex(),
                first.getRequestIndex(),
                first.getSeq(),
                first.getGapNs(),
                first.getArrivedEpochNs(),
                chunks.stream().map(Chunk::getOffsetNs).toList(),
                Arrays.asList(chunks.stream().map(Chunk::getTokens).toArray(Integer[]::new)),
                chunks.stream().map(Chunk::getBytes).toList());
    }

    /** What the batcher closed. */
    private static final class Recorded implements ChunkBatcher.Out {
        record Batch(String key, byte[] value, int events) {}

        final List<Batch> batches = new ArrayList<>();
        int unwritableEvents;

        @Override
        public void batch(byte[] key, byte[] value, int events) {
            batches.add(new Batch(new String(key, StandardCharsets.UTF_8), value, events));
        }

        @Override
        public void unwritable(int events, RuntimeException error) {
            unwritableEvents += events;
        }
    }
}
