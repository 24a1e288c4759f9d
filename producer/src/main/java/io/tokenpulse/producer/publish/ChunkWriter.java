package io.tokenpulse.producer.publish;

import io.tokenpulse.schemas.Topics;
import io.tokenpulse.schemas.avro.Chunk;
import io.tokenpulse.schemas.serde.AvroSerializer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntSupplier;
import org.apache.avro.Schema;
import org.apache.kafka.common.errors.SerializationException;

/**
 * Writes a {@link Chunk}'s key and value bytes exactly as the chunks topic's serdes would (key: the
 * UTF-8 of {@link Topics#requestKey}; value: Confluent's wire format around the Avro binary
 * encoding), without their per-record work: no key {@code String}, no boxing of the record's fields
 * (Avro's generic writer reads each through {@code get(i)}), no encoder set up per record. The value
 * is encoded into one reused buffer and copied out once (the producer and the spool keep byte
 * arrays); a request's key bytes are kept while its chunks come, in a small table by request index.
 *
 * <p>Written by hand for {@code Chunk.avsc} as it is: {@link #supports} checks the generated
 * schema field by field, and the publisher uses the ordinary serializer when it does not match
 * (a field added to the schema without updating this class costs speed, not correctness).
 * {@code ChunkWriterTest} compares the bytes with the serializer's.
 *
 * <p>Not thread-safe: the publisher's sender thread only.
 */
final class ChunkWriter {

    /** The schema this writer encodes: field names and types in order. */
    private static final List<String> FIELDS = List.of(
            "run_id:STRING",
            "shard_index:INT",
            "request_index:INT",
            "seq:INT",
            "offset_ns:LONG",
            "gap_ns:LONG",
            "arrived_epoch_ns:LONG",
            "tokens:UNION[NULL,INT]",
            "bytes:INT");
    /** Keys kept, by request index modulo this (requests in flight at once stay far below it). */
    private static final int KEY_SLOTS = 4096;
    /** Magic byte, schema id, and the eight fields after run_id at their longest (3 ints, 3 longs, union + int, int). */
    private static final int MAX_FIXED_BYTES = 5 + 5 * 3 + 10 * 3 + 1 + 5 + 5;

    private final IntSupplier schemaId;
    private String runId;
    private byte[] runIdUtf8;
    private byte[] buffer = new byte[128];
    private final int[] keyIndex = new int[KEY_SLOTS];
    private final byte[][] keys = new byte[KEY_SLOTS][];

    /** @param schemaId the value schema's registry id, asked once per record (the serializer caches it) */
    ChunkWriter(IntSupplier schemaId) {
        this.schemaId = schemaId;
    }

    /** A writer for the value serializer's schema id, or null when this class cannot stand in for it. */
    static ChunkWriter forSerializer(Object valueSerializer) {
        if (valueSerializer instanceof AvroSerializer<?> avro && supports(Chunk.getClassSchema())) {
            return new ChunkWriter(avro::schemaId);
        }
        return null;
    }

    /** Whether {@code schema} is the one this class encodes. */
    static boolean supports(Schema schema) {
        if (schema.getType() != Schema.Type.RECORD || schema.getFields().size() != FIELDS.size()) {
            return false;
        }
        for (int i = 0; i < FIELDS.size(); i++) {
            Schema.Field field = schema.getFields().get(i);
            if (!FIELDS.get(i).equals(field.name() + ":" + describe(field.schema()))) {
                return false;
            }
        }
        return true;
    }

    private static String describe(Schema schema) {
        if (schema.getType() == Schema.Type.UNION) {
            StringBuilder s = new StringBuilder("UNION[");
            for (Schema branch : schema.getTypes()) {
                s.append(s.length() > 6 ? "," : "").append(branch.getType());
            }
            return s.append(']').toString();
        }
        // a string with avro.java.string=String or without: the same bytes either way
        return schema.getType().toString();
    }

    /** The key's bytes: {@code <run id>/<request index>} in UTF-8, shared by a request's chunks (never modify them). */
    byte[] key(Chunk chunk) {
        runIdBytes(chunk.getRunId());
        int index = chunk.getRequestIndex();
        int slot = index & (KEY_SLOTS - 1);
        byte[] key = keys[slot];
        if (key == null || keyIndex[slot] != index) {
            key = Topics.requestKey(runId, index).getBytes(StandardCharsets.UTF_8);
            keys[slot] = key;
            keyIndex[slot] = index;
        }
        return key;
    }

    /** The value's bytes in Confluent's wire format, as the chunks topic's Avro serializer writes them. */
    byte[] value(Chunk chunk) {
        byte[] run = runIdBytes(chunk.getRunId());
        int id = schemaId.getAsInt();
        byte[] b = buffer;
        b[0] = 0; // magic byte
        b[1] = (byte) (id >>> 24);
        b[2] = (byte) (id >>> 16);
        b[3] = (byte) (id >>> 8);
        b[4] = (byte) id;
        int p = writeInt(b, 5, run.length);
        System.arraycopy(run, 0, b, p, run.length);
        p += run.length;
        p = writeInt(b, p, chunk.getShardIndex());
        p = writeInt(b, p, chunk.getRequestIndex());
        p = writeInt(b, p, chunk.getSeq());
        p = writeLong(b, p, chunk.getOffsetNs());
        p = writeLong(b, p, chunk.getGapNs());
        p = writeLong(b, p, chunk.getArrivedEpochNs());
        Integer tokens = chunk.getTokens();
        if (tokens == null) {
            b[p++] = 0; // union branch 0: null
        } else {
            b[p++] = 2; // union branch 1 (zig-zag): int
            p = writeInt(b, p, tokens);
        }
        p = writeInt(b, p, chunk.getBytes());
        byte[] value = new byte[p];
        System.arraycopy(b, 0, value, 0, p);
        return value;
    }

    /** The run id's UTF-8, kept while the run id stays the same (one per publisher in practice). */
    private byte[] runIdBytes(String id) {
        if (id == null) { // what the serializer says of a required field left null
            throw new SerializationException(
                    "cannot write a Chunk record: null value for (non-nullable) string at Chunk.run_id");
        }
        if (!id.equals(runId)) {
            runId = id;
            runIdUtf8 = id.getBytes(StandardCharsets.UTF_8);
            buffer = new byte[runIdUtf8.length + MAX_FIXED_BYTES + 5];
            Arrays.fill(keys, null);
        }
        return runIdUtf8;
    }

    /** Avro's int: zig-zag, then 7 bits a byte, low first. */
    private static int writeInt(byte[] b, int p, int value) {
        int n = (value << 1) ^ (value >> 31);
        while ((n & ~0x7F) != 0) {
            b[p++] = (byte) ((n & 0x7F) | 0x80);
            n >>>= 7;
        }
        b[p++] = (byte) n;
        return p;
    }

    /** Avro's long: zig-zag, then 7 bits a byte, low first. */
    private static int writeLong(byte[] b, int p, long value) {
        long n = (value << 1) ^ (value >> 63);
        while ((n & ~0x7FL) != 0) {
            b[p++] = (byte) ((n & 0x7F) | 0x80);
            n >>>= 7;
        }
        b[p++] = (byte) n;
        return p;
    }
}
