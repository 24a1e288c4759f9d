package io.tokenpulse.schemas;

import io.tokenpulse.schemas.avro.Chunk;
import io.tokenpulse.schemas.avro.ChunkBatch;
import java.util.ArrayList;
import java.util.List;

/**
 * How a {@link ChunkBatch} ({@code chunk-batches}) reads as the per-event {@link Chunk}s of the
 * {@code chunks} topic, in one place for every reader (the aggregator's meters, export, the bench
 * tools): event {@code i} has seq {@code first_seq + i}, offset {@code offsets_ns[i]}, gap
 * {@code first_gap_ns} for {@code i = 0} and the difference of consecutive offsets after, and
 * arrived {@code first_arrived_epoch_ns} plus its offset's distance from the first.
 */
public final class ChunkBatches {
    private ChunkBatches() {}

    /** How many streamed events the batch carries. */
    public static int size(ChunkBatch batch) {
        return batch.getOffsetsNs().size();
    }

    /** Wall-clock arrival (ns since the epoch) of the batch's last event; its first's when it has none. */
    public static long newestArrivedEpochNs(ChunkBatch batch) {
        List<Long> offsets = batch.getOffsetsNs();
        if (offsets.isEmpty()) {
            return batch.getFirstArrivedEpochNs();
        }
        return batch.getFirstArrivedEpochNs() + offsets.get(offsets.size() - 1) - offsets.get(0);
    }

    /**
     * The batch's events as the chunks the per-event topic would carry, in seq order.
     *
     * @throws IllegalArgumentException when {@code tokens} or {@code bytes} is not as long as
     *     {@code offsets_ns} (the schema requires it; a record that breaks it cannot be expanded)
     */
    public static List<Chunk> expand(ChunkBatch batch) {
        List<Long> offsets = batch.getOffsetsNs();
        List<Integer> tokens = batch.getTokens();
        List<Integer> bytes = batch.getBytes();
        int size = offsets.size();
        if (tokens.size() != size || bytes.size() != size) {
            throw new IllegalArgumentException("chunk batch of request " + batch.getRunId() + "/"
                    + batch.getRequestIndex() + " from seq " + batch.getFirstSeq() + " has " + size
                    + " offsets but " + tokens.size() + " tokens and " + bytes.size() + " bytes entries");
        }
        List<Chunk> chunks = new ArrayList<>(size);
        long previousNs = 0;
        for (int i = 0; i < size; i++) {
            long offsetNs = offsets.get(i);
            chunks.add(Chunk.newBuilder()
                    .setRunId(batch.getRunId())
                    .setShardIndex(batch.getShardIndex())
                    .setRequestIndex(batch.getRequestIndex())
                    .setSeq(batch.getFirstSeq() + i)
                    .setOffsetNs(offsetNs)
                    .setGapNs(i == 0 ? batch.getFirstGapNs() : offsetNs - previousNs)
                    .setArrivedEpochNs(batch.getFirstArrivedEpochNs() + offsetNs - offsets.get(0))
                    .setTokens(tokens.get(i))
                    .setBytes(bytes.get(i))
                    .build());
            previousNs = offsetNs;
        }
        return chunks;
    }
}
