package io.tokenpulse.producer.publish;

import io.tokenpulse.schemas.serde.WireFormat;
import java.util.List;
import org.apache.avro.Schema;

/**
 * Avro's binary encoding and Confluent's wire-format header, for the writers that encode the
 * publisher's most frequent records by hand ({@link ChunkWriter}, {@link ChunkBatcher}), and the check
 * that a generated schema is still the one such a writer encodes.
 */
final class AvroBinary {

    /** The longest encoding of an int. */
    static final int MAX_INT_BYTES = 5;
    /** The longest encoding of a long. */
    static final int MAX_LONG_BYTES = 10;

    private AvroBinary() {}

    /** Whether {@code schema} is a record of exactly {@code fields}, each {@code name:TYPE} as {@link #describe} writes it. */
    static boolean matches(Schema schema, List<String> fields) {
        if (schema.getType() != Schema.Type.RECORD || schema.getFields().size() != fields.size()) {
            return false;
        }
        for (int i = 0; i < fields.size(); i++) {
            Schema.Field field = schema.getFields().get(i);
            if (!fields.get(i).equals(field.name() + ":" + describe(field.schema()))) {
                return false;
            }
        }
        return true;
    }

    /** {@code LONG}, {@code UNION[NULL,INT]}, {@code ARRAY[LONG]}, ... */
    private static String describe(Schema schema) {
        return switch (schema.getType()) {
            case UNION ->
                "UNION["
                        + String.join(
                                ",",
                                schema.getTypes().stream()
                                        .map(branch -> branch.getType().toString())
                                        .toList())
                        + "]";
            case ARRAY -> "ARRAY[" + describe(schema.getElementType()) + "]";
            // a string with avro.java.string=String or without: the same bytes either way
            default -> schema.getType().toString();
        };
    }

    /** Confluent's wire-format header: magic byte 0, then the schema id big-endian. Returns the next position. */
    static int writeHeader(byte[] b, int schemaId) {
        WireFormat.writeHeader(b, schemaId);
        return WireFormat.HEADER_BYTES;
    }

    /** Avro's int: zig-zag, then 7 bits a byte, low first. */
    static int writeInt(byte[] b, int p, int value) {
        int n = (value << 1) ^ (value >> 31);
        while ((n & ~0x7F) != 0) {
            b[p++] = (byte) ((n & 0x7F) | 0x80);
            n >>>= 7;
        }
        b[p++] = (byte) n;
        return p;
    }

    /** Avro's long: zig-zag, then 7 bits a byte, low first. */
    static int writeLong(byte[] b, int p, long value) {
        long n = (value << 1) ^ (value >> 63);
        while ((n & ~0x7FL) != 0) {
            b[p++] = (byte) ((n & 0x7F) | 0x80);
            n >>>= 7;
        }
        b[p++] = (byte) n;
        return p;
    }

    /** Avro's string or bytes: the length, then the bytes. */
    static int writeBytes(byte[] b, int p, byte[] bytes) {
        p = writeInt(b, p, bytes.length);
        System.arraycopy(bytes, 0, b, p, bytes.length);
        return p + bytes.length;
    }

    /** An optional int as the union {@code ["null", "int"]}: branch 0 alone, or branch 1 and the int. */
    static int writeNullableInt(byte[] b, int p, Integer value) {
        if (value == null) {
            b[p++] = 0;
            return p;
        }
        b[p++] = 2; // branch 1, zig-zag
        return writeInt(b, p, value);
    }
}
