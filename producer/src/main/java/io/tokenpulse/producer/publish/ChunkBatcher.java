package io.tokenpulse.producer.publish;

import io.tokenpulse.schemas.avro.Chunk;
import io.tokenpulse.schemas.avro.ChunkBatch;
import io.tokenpulse.schemas.serde.AvroSerializer;
import io.tokenpulse.schemas.serde.WireFormat;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntSupplier;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Gathers each request's consecutive {@link Chunk}s into one {@link ChunkBatch} record, and writes
 * its key and value bytes as the chunk-batches topic's serdes would.
 *
 * <p>A batch closes at the end of the {@code interval}-long slot of the sender's clock in which its
 * first event came ({@link #flushDue}; slots are multiples of {@code interval} on {@link System#nanoTime},
 * so every batch of a slot closes at one instant and the sender wakes once per interval to hand Kafka
 * all of them together), when its request
 * finishes ({@link #flushRequest}: the join completes without waiting), when an event does not follow
 * it (a seq skipped because the queue was full; a batch holds consecutive seqs only), when it holds
 * {@link #MAX_EVENTS}, and on {@link #flushAll}. Closed batches go to {@link Out} in the order they
 * close, so a request's events reach Kafka in seq order and before its finish.
 *
 * <p>The value is encoded by hand from primitive arrays when the generated schema is the one this
 * class knows ({@link #FIELDS}); otherwise through the topic's serializer (a field added to the schema
 * without updating this class costs speed, not correctness). {@code ChunkBatcherTest} compares the
 * bytes with the serializer's.
 *
 * <p>Not thread-safe: the publisher's sender thread only.
 */
final class ChunkBatcher {

    /** Events in one record at most: ~20 bytes each at their longest, so well below Kafka's 1 MiB. */
    static final int MAX_EVENTS = 4096;

    private static final List<String> FIELDS = List.of(
            "run_id:STRING",
            "shard_index:INT",
            "request_index:INT",
            "first_seq:INT",
            "first_gap_ns:LONG",
            "first_arrived_epoch_ns:LONG",
            "offsets_ns:ARRAY[LONG]",
            "tokens:ARRAY[UNION[NULL,INT]]",
            "bytes:ARRAY[INT]");
    /** Header, run id length, 3 ints, 2 longs, and each array's count and end. */
    private static final int MAX_FIXED_BYTES = WireFormat.HEADER_BYTES
            + AvroBinary.MAX_INT_BYTES * 4
            + AvroBinary.MAX_LONG_BYTES * 2
            + (AvroBinary.MAX_LONG_BYTES + 1) * 3;
    /** An event's offset, its token union (branch and int) and its size. */
    private static final int MAX_EVENT_BYTES = AvroBinary.MAX_LONG_BYTES + 1 + AvroBinary.MAX_INT_BYTES * 2;
    /** Open batches by request index modulo this; two in flight on one slot close each other early. */
    private static final int SLOTS = 4096;

    /** Where closed batches go. */
    interface Out {
        /** A batch of {@code events} events, as key and value bytes. */
        void batch(byte[] key, byte[] value, int events);

        /** A batch of {@code events} events that could not be serialized. */
        void unwritable(int events, RuntimeException error);
    }

    private final IntSupplier schemaId;
    private final Serializer<ChunkBatch> serializer;
    private final String topic;
    private final long intervalNs;
    private final RequestKeys keys = new RequestKeys();
    private final Open[] slots = new Open[SLOTS];
    /** Batches in the order they opened; closed ones are skipped when they reach the head. */
    private final ArrayDeque<Open> byAge = new ArrayDeque<>();

    private int openEvents;
    private byte[] buffer = new byte[1024];

    /**
     * @param serializer the chunk-batches topic's value serializer: its schema id for the hand-written
     *     bytes, or itself when the schema is not the one this class encodes
     */
    ChunkBatcher(Serializer<ChunkBatch> serializer, String topic, long intervalNs) {
        this.serializer = serializer;
        this.topic = topic;
        this.intervalNs = intervalNs;
        this.schemaId = serializer instanceof AvroSerializer<?> avro && supports(ChunkBatch.getClassSchema())
                ? avro::schemaId
                : null;
    }

    /** Whether {@code schema} is the one the hand-written encoding writes. */
    static boolean supports(org.apache.avro.Schema schema) {
        return AvroBinary.matches(schema, FIELDS);
    }

    /**
     * Adds a chunk to its request's open batch, first closing that batch when the chunk does not
     * follow it.
     *
     * @throws org.apache.kafka.common.errors.SerializationException when the chunk has no run id
     */
    void add(Chunk chunk, long nowNs, Out out) {
        keys.runId(chunk.getRunId(), "ChunkBatch");
        int slot = chunk.getRequestIndex() & (SLOTS - 1);
        Open open = slots[slot];
        if (open != null && !open.takes(chunk)) {
            close(open, out);
            open = null;
        }
        if (open == null) {
            open = new Open(chunk, slotEndNs(nowNs));
            slots[slot] = open;
            byAge.addLast(open);
        }
        open.append(chunk);
        openEvents++;
    }

    /** Closes the request's open batch, if it has one (its finish is about to be sent). */
    void flushRequest(String runId, int requestIndex, Out out) {
        Open open = slots[requestIndex & (SLOTS - 1)];
        if (open != null && open.requestIndex == requestIndex && open.runId.equals(runId)) {
            close(open, out);
        }
    }

    /** Closes the batches whose slot ended at or before {@code nowNs}. */
    void flushDue(long nowNs, Out out) {
        for (Open head = liveHead(); head != null && nowNs >= head.dueNs; head = liveHead()) {
            close(head, out);
        }
    }

    /** Closes every open batch. */
    void flushAll(Out out) {
        for (Open head = liveHead(); head != null; head = liveHead()) {
            close(head, out);
        }
    }

    /** When the oldest open batch is due; {@link Long#MAX_VALUE} when none is open. */
    long nextDueNs() {
        Open head = liveHead();
        return head == null ? Long.MAX_VALUE : head.dueNs;
    }

    /**
     * The end of the slot {@code nowNs} falls in: when a batch opened now closes. With an interval of 0
     * there are no slots: {@code nowNs} itself, a batch closes at the sender's next look.
     */
    long slotEndNs(long nowNs) {
        return intervalNs == 0 ? nowNs : Math.floorDiv(nowNs, intervalNs) * intervalNs + intervalNs;
    }

    /** Events in batches not yet closed. */
    int openEvents() {
        return openEvents;
    }

    private Open liveHead() {
        Open head = byAge.peekFirst();
        while (head != null && head.closed) {
            byAge.pollFirst();
            head = byAge.peekFirst();
        }
        return head;
    }

    private void close(Open open, Out out) {
        open.closed = true;
        int slot = open.requestIndex & (SLOTS - 1);
        if (slots[slot] == open) {
            slots[slot] = null;
        }
        openEvents -= open.count;
        try {
            byte[] run = keys.runId(open.runId, "ChunkBatch"); // the batch's own run, should a new one have begun
            byte[] key = keys.key(open.requestIndex);
            byte[] value = schemaId != null ? handWritten(open, run) : serializer.serialize(topic, open.toRecord());
            out.batch(key, value, open.count);
        } catch (RuntimeException e) {
            out.unwritable(open.count, e);
        }
    }

    private byte[] handWritten(Open open, byte[] run) {
        int longest = MAX_FIXED_BYTES + run.length + MAX_EVENT_BYTES * open.count;
        if (buffer.length < longest) {
            buffer = new byte[Math.max(longest, buffer.length * 2)];
        }
        byte[] b = buffer;
        int p = AvroBinary.writeHeader(b, schemaId.getAsInt());
        p = AvroBinary.writeBytes(b, p, run);
        p = AvroBinary.writeInt(b, p, open.shardIndex);
        p = AvroBinary.writeInt(b, p, open.requestIndex);
        p = AvroBinary.writeInt(b, p, open.firstSeq);
        p = AvroBinary.writeLong(b, p, open.firstGapNs);
        p = AvroBinary.writeLong(b, p, open.firstArrivedEpochNs);
        // an array: one block of count items, then a block of 0
        p = AvroBinary.writeLong(b, p, open.count);
        for (int i = 0; i < open.count; i++) {
            p = AvroBinary.writeLong(b, p, open.offsetsNs[i]);
        }
        b[p++] = 0;
        p = AvroBinary.writeLong(b, p, open.count);
        for (int i = 0; i < open.count; i++) {
            p = AvroBinary.writeNullableInt(b, p, open.tokens[i]);
        }
        b[p++] = 0;
        p = AvroBinary.writeLong(b, p, open.count);
        for (int i = 0; i < open.count; i++) {
            p = AvroBinary.writeInt(b, p, open.bytes[i]);
        }
        b[p++] = 0;
        return Arrays.copyOf(b, p);
    }

    /** A request's batch being gathered. */
    private static final class Open {
        final String runId;
        final int shardIndex;
        final int requestIndex;
        final int firstSeq;
        final long firstGapNs;
        final long firstArrivedEpochNs;
        final long dueNs;
        long[] offsetsNs = new long[8];
        Integer[] tokens = new Integer[8];
        int[] bytes = new int[8];
        int count;
        boolean closed;

        Open(Chunk first, long dueNs) {
            this.runId = first.getRunId();
            this.shardIndex = first.getShardIndex();
            this.requestIndex = first.getRequestIndex();
            this.firstSeq = first.getSeq();
            this.firstGapNs = first.getGapNs();
            this.firstArrivedEpochNs = first.getArrivedEpochNs();
            this.dueNs = dueNs;
        }

        /** Whether {@code chunk} is this batch's next event and there is room for it. */
        boolean takes(Chunk chunk) {
            return chunk.getRequestIndex() == requestIndex
                    && chunk.getSeq() == firstSeq + count
                    && count < MAX_EVENTS
                    && chunk.getRunId().equals(runId);
        }

        void append(Chunk chunk) {
            if (count == offsetsNs.length) {
                int size = Math.min(count * 2, MAX_EVENTS);
                offsetsNs = Arrays.copyOf(offsetsNs, size);
                tokens = Arrays.copyOf(tokens, size);
                bytes = Arrays.copyOf(bytes, size);
            }
            offsetsNs[count] = chunk.getOffsetNs();
            tokens[count] = chunk.getTokens();
            bytes[count] = chunk.getBytes();
            count++;
        }

        ChunkBatch toRecord() {
            List<Long> offsets = new ArrayList<>(count);
            List<Integer> eventTokens = new ArrayList<>(count);
            List<Integer> eventBytes = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                offsets.add(offsetsNs[i]);
                eventTokens.add(tokens[i]);
                eventBytes.add(bytes[i]);
            }
            return new ChunkBatch(
                    runId,
                    shardIndex,
                    requestIndex,
                    firstSeq,
                    firstGapNs,
                    firstArrivedEpochNs,
                    offsets,
                    eventTokens,
                    eventBytes);
        }
    }
}
