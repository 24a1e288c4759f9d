package io.tokenpulse.producer.publish;

import io.tokenpulse.schemas.avro.Chunk;
import io.tokenpulse.schemas.serde.AvroSerializer;
import io.tokenpulse.schemas.serde.WireFormat;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntSupplier;
import org.apache.avro.Schema;

/**
 * Writes a {@link Chunk}'s key and value bytes exactly as the chunks topic's serdes would (key: the
 * UTF-8 of {@link io.tokenpulse.schemas.Topics#requestKey}; value: Confluent's wire format around the Avro binary
 * encoding), without their per-record work: no key {@code String}, no boxing of the record's fields
 * (Avro's generic writer reads each through {@code get(i)}), no encoder set up per record. The value
 * is encoded into one reused buffer and copied out once (the producer and the spool keep byte
 * arrays); a request's key bytes are kept while its chunks come ({@link RequestKeys}).
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
    /** Header, the run id's length, and the eight fields after run_id at their longest (5 ints, 3 longs, a union's branch). */
    private static final int MAX_FIXED_BYTES =
            WireFormat.HEADER_BYTES + AvroBinary.MAX_INT_BYTES * 6 + AvroBinary.MAX_LONG_BYTES * 3 + 1;

    private final IntSupplier schemaId;
    private final RequestKeys keys = new RequestKeys();
    private byte[] buffer = new byte[128];

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
        return AvroBinary.matches(schema, FIELDS);
    }

    /** The key's bytes: {@code <run id>/<request index>} in UTF-8, shared by a request's chunks (never modify them). */
    byte[] key(Chunk chunk) {
        keys.runId(chunk.getRunId(), "Chunk");
        return keys.key(chunk.getRequestIndex());
    }

    /** The value's bytes in Confluent's wire format, as the chunks topic's Avro serializer writes them. */
    byte[] value(Chunk chunk) {
        byte[] run = keys.runId(chunk.getRunId(), "Chunk");
        if (buffer.length < run.length + MAX_FIXED_BYTES) {
            buffer = new byte[run.length + MAX_FIXED_BYTES];
        }
        byte[] b = buffer;
        int p = AvroBinary.writeHeader(b, schemaId.getAsInt());
        p = AvroBinary.writeBytes(b, p, run);
        p = AvroBinary.writeInt(b, p, chunk.getShardIndex());
        p = AvroBinary.writeInt(b, p, chunk.getRequestIndex());
        p = AvroBinary.writeInt(b, p, chunk.getSeq());
        p = AvroBinary.writeLong(b, p, chunk.getOffsetNs());
        p = AvroBinary.writeLong(b, p, chunk.getGapNs());
        p = AvroBinary.writeLong(b, p, chunk.getArrivedEpochNs());
        p = AvroBinary.writeNullableInt(b, p, chunk.getTokens());
        p = AvroBinary.writeInt(b, p, chunk.getBytes());
        return Arrays.copyOf(b, p);
    }
}
