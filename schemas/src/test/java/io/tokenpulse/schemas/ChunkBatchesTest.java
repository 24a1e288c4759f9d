package io.tokenpulse.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tokenpulse.schemas.avro.Chunk;
import io.tokenpulse.schemas.avro.ChunkBatch;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChunkBatchesTest {
    private static final long EPOCH_NS = 1_700_000_000_000_000_000L;

    @Test
    void firstBatchExpandsIntoTheChunksFromSeqZero() {
        ChunkBatch batch =
                batch(0, 0, EPOCH_NS, List.of(100L, 130L, 175L), Arrays.asList(1, 2, 1), List.of(10, 20, 11));

        assertThat(ChunkBatches.expand(batch))
                .containsExactly(
                        new Chunk("r1", 1, 7, 0, 100L, 0L, EPOCH_NS, 1, 10),
                        new Chunk("r1", 1, 7, 1, 130L, 30L, EPOCH_NS + 30, 2, 20),
                        new Chunk("r1", 1, 7, 2, 175L, 45L, EPOCH_NS + 75, 1, 11));
        assertThat(ChunkBatches.size(batch)).isEqualTo(3);
        assertThat(ChunkBatches.newestArrivedEpochNs(batch)).isEqualTo(EPOCH_NS + 75);
    }

    @Test
    void laterBatchContinuesTheSeqsAndTakesItsFirstGapFromTheRecord() {
        ChunkBatch batch = batch(5, 40L, EPOCH_NS + 500, List.of(500L, 520L), Arrays.asList(null, null), List.of(3, 4));

        assertThat(ChunkBatches.expand(batch))
                .containsExactly(
                        new Chunk("r1", 1, 7, 5, 500L, 40L, EPOCH_NS + 500, null, 3),
                        new Chunk("r1", 1, 7, 6, 520L, 20L, EPOCH_NS + 520, null, 4));
        assertThat(ChunkBatches.newestArrivedEpochNs(batch)).isEqualTo(EPOCH_NS + 520);
    }

    @Test
    void emptyBatchHasNoEvents() {
        ChunkBatch batch = batch(3, 0, EPOCH_NS, List.of(), List.of(), List.of());

        assertThat(ChunkBatches.expand(batch)).isEmpty();
        assertThat(ChunkBatches.size(batch)).isZero();
        assertThat(ChunkBatches.newestArrivedEpochNs(batch)).isEqualTo(EPOCH_NS);
    }

    @Test
    void arraysOfDifferentLengthsSayWhichRecord() {
        ChunkBatch batch = batch(2, 0, EPOCH_NS, List.of(1L, 2L), Arrays.asList(1, 1), List.of(9));

        assertThatThrownBy(() -> ChunkBatches.expand(batch))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("chunk batch of request r1/7 from seq 2 has 2 offsets but 2 tokens and 1 bytes entries");
    }

    private static ChunkBatch batch(
            int firstSeq,
            long firstGapNs,
            long firstArrivedEpochNs,
            List<Long> offsetsNs,
            List<Integer> tokens,
            List<Integer> bytes) {
        return new ChunkBatch("r1", 1, 7, firstSeq, firstGapNs, firstArrivedEpochNs, offsetsNs, tokens, bytes);
    }
}
