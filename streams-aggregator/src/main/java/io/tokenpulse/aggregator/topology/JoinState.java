package io.tokenpulse.aggregator.topology;

import java.nio.ByteBuffer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/**
 * The values {@link RequestJoin} keeps per request, and their store serdes: a fixed-size binary
 * layout each (Avro would add a schema and a record allocation per read for three numbers).
 */
final class JoinState {
    private JoinState() {}

    /**
     * How far one request's join got.
     *
     * @param arrived    distinct chunks stored so far
     * @param announced  chunks its RequestFinished announced, or {@link #NO_FINISH} before the finish
     * @param lastSeenMs the newest record timestamp (ms) of the request, what expiry counts from
     */
    record Progress(int arrived, int announced, long lastSeenMs) {
        static final int NO_FINISH = -1;
        private static final int BYTES = Integer.BYTES * 2 + Long.BYTES;

        static Progress none() {
            return new Progress(0, NO_FINISH, Long.MIN_VALUE);
        }

        /** {@code added} more distinct chunks, the newest of them in a record of {@code timestampMs}. */
        Progress withChunks(int added, long timestampMs) {
            return new Progress(arrived + added, announced, Math.max(lastSeenMs, timestampMs));
        }

        Progress withFinish(int chunkEvents, long timestampMs) {
            return new Progress(arrived, chunkEvents, Math.max(lastSeenMs, timestampMs));
        }

        boolean complete() {
            return announced != NO_FINISH && arrived >= announced;
        }

        static Serde<Progress> serde() {
            return Serdes.serdeFrom(
                    (topic, p) -> p == null
                            ? null
                            : ByteBuffer.allocate(BYTES)
                                    .putInt(p.arrived)
                                    .putInt(p.announced)
                                    .putLong(p.lastSeenMs)
                                    .array(),
                    (topic, bytes) -> {
                        if (bytes == null) {
                            return null;
                        }
                        ByteBuffer in = ByteBuffer.wrap(bytes);
                        return new Progress(in.getInt(), in.getInt(), in.getLong());
                    });
        }
    }

    /**
     * The arrival offsets of up to {@link #SIZE} consecutive chunks of one request (by seq), with a
     * bit per seq that arrived. One store entry per block rather than per chunk: the record cache
     * then holds and flushes one entry for 64 chunks, and a chunk needs no store miss to learn
     * whether its seq is a repeat (issue 14: the cache's key compares and the per-chunk misses were
     * most of the stream thread's time in a catch-up).
     */
    static final class OffsetBlock {
        static final int SIZE = Long.SIZE;

        private long present;
        private final long[] offsetsNs;

        private OffsetBlock(long present, long[] offsetsNs) {
            this.present = present;
            this.offsetsNs = offsetsNs;
        }

        static OffsetBlock empty() {
            return new OffsetBlock(0L, new long[SIZE]);
        }

        static int blockOf(int seq) {
            return Math.floorDiv(seq, SIZE);
        }

        /** The position of {@code seq} within its block. */
        static int slotOf(int seq) {
            return Math.floorMod(seq, SIZE);
        }

        /** Stores the chunk's offset; false when its seq was already there (a repeat counts once). */
        boolean add(int seq, long offsetNs) {
            int slot = slotOf(seq);
            long bit = 1L << slot;
            if ((present & bit) != 0) {
                return false;
            }
            present |= bit;
            offsetsNs[slot] = offsetNs;
            return true;
        }

        /** The offsets that arrived, in seq order. */
        long[] offsetsNs() {
            long[] out = new long[Long.bitCount(present)];
            int i = 0;
            for (long left = present; left != 0; left &= left - 1) {
                out[i++] = offsetsNs[Long.numberOfTrailingZeros(left)];
            }
            return out;
        }

        static Serde<OffsetBlock> serde() {
            return Serdes.serdeFrom(
                    (topic, block) -> {
                        if (block == null) {
                            return null;
                        }
                        // slots past the highest present one are left out
                        int used = SIZE - Long.numberOfLeadingZeros(block.present);
                        ByteBuffer out = ByteBuffer.allocate(Long.BYTES * (1 + used));
                        out.putLong(block.present);
                        for (int slot = 0; slot < used; slot++) {
                            out.putLong(block.offsetsNs[slot]);
                        }
                        return out.array();
                    },
                    (topic, bytes) -> {
                        if (bytes == null) {
                            return null;
                        }
                        ByteBuffer in = ByteBuffer.wrap(bytes);
                        long present = in.getLong();
                        long[] offsets = new long[SIZE];
                        for (int slot = 0; in.hasRemaining(); slot++) {
                            offsets[slot] = in.getLong();
                        }
                        return new OffsetBlock(present, offsets);
                    });
        }
    }
}
