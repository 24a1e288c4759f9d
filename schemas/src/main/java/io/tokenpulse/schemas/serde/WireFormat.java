package io.tokenpulse.schemas.serde;

/**
 * Confluent's wire format: byte 0 is the magic byte 0, bytes 1-4 the schema id (big-endian), then
 * the Avro binary encoding of the record. Hand-written because Confluent's serializers, which
 * define it, are not on Maven Central; the format is five bytes of framing.
 */
public final class WireFormat {
    public static final byte MAGIC_BYTE = 0;
    public static final int HEADER_BYTES = 5;

    private WireFormat() {}

    /** Writes the header into {@code target}'s first {@link #HEADER_BYTES} bytes. */
    public static void writeHeader(byte[] target, int schemaId) {
        target[0] = MAGIC_BYTE;
        target[1] = (byte) (schemaId >>> 24);
        target[2] = (byte) (schemaId >>> 16);
        target[3] = (byte) (schemaId >>> 8);
        target[4] = (byte) schemaId;
    }

    static int readSchemaId(byte[] data) {
        return ((data[1] & 0xff) << 24) | ((data[2] & 0xff) << 16) | ((data[3] & 0xff) << 8) | (data[4] & 0xff);
    }
}
