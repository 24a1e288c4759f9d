package io.tokenpulse.schemas.serde;

import io.tokenpulse.schemas.registry.SchemaRegistry;
import io.tokenpulse.schemas.registry.SchemaRegistryException;
import java.io.EOFException;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Reads Confluent wire-format records (magic byte 0, 4-byte big-endian schema id, Avro binary) as
 * instances of the generated class {@code T}.
 *
 * <p>The writer schema is fetched by id from the registry once per id and resolved to {@code T}'s
 * schema with Avro schema resolution, so records written by an older or newer version of a schema
 * are read as long as the two are compatible (fields added with defaults, fields removed).
 *
 * <p>Thread-safe. Null bytes deserialize to null. Anything else that is not a whole record of a
 * compatible schema fails with a one-line {@link SerializationException}: fewer than 5 bytes, a
 * wrong magic byte, an id the registry does not know, an incompatible writer schema, a truncated
 * body, or bytes left over after the record.
 */
public final class AvroDeserializer<T extends SpecificRecord> implements Deserializer<T> {
    private static final ThreadLocal<BinaryDecoder> DECODERS = new ThreadLocal<>();

    private final SchemaRegistry registry;
    private final SpecificData model;
    private final Schema readerSchema;
    private final Map<Integer, DatumReader<T>> readersById = new ConcurrentHashMap<>();

    /** @param type the generated class to read records as */
    public AvroDeserializer(SchemaRegistry registry, Class<T> type) {
        this.registry = registry;
        this.model = SpecificData.getForClass(type);
        this.readerSchema = model.getSchema(type);
    }

    @Override
    public T deserialize(String topic, byte[] data) {
        if (data == null) {
            return null;
        }
        if (data.length < WireFormat.HEADER_BYTES) {
            throw new SerializationException("record from topic " + topic + " has " + data.length
                    + " byte(s), fewer than the 5 of the Confluent wire-format header"
                    + " (magic byte 0 and a 4-byte schema id)");
        }
        if (data[0] != WireFormat.MAGIC_BYTE) {
            throw new SerializationException(String.format(
                    "record from topic %s starts with byte 0x%02x,"
                            + " not the Confluent wire-format magic byte 0x00; it was not written by a"
                            + " schema-registry Avro serializer",
                    topic, data[0] & 0xff));
        }
        int id = WireFormat.readSchemaId(data);
        DatumReader<T> reader = readerFor(id, topic);
        BinaryDecoder decoder = DecoderFactory.get()
                .binaryDecoder(data, WireFormat.HEADER_BYTES, data.length - WireFormat.HEADER_BYTES, DECODERS.get());
        DECODERS.set(decoder);
        T record;
        try {
            record = reader.read(null, decoder);
        } catch (EOFException e) {
            throw new SerializationException("record from topic " + topic + " is truncated: its "
                    + (data.length - WireFormat.HEADER_BYTES) + "-byte Avro body ends before a whole "
                    + readerSchema.getName() + " (schema id " + id + ") was read");
        } catch (IOException | RuntimeException e) {
            // Corrupt bytes surface as negative lengths, bad union indexes, invalid UTF-8 and the like.
            throw new SerializationException(
                    "record from topic " + topic + " is not a valid " + readerSchema.getName()
                            + " encoded with schema id " + id + ": " + e,
                    e);
        }
        if (!isEnd(decoder)) {
            throw new SerializationException("record from topic " + topic + " has bytes left over after"
                    + " the " + readerSchema.getName() + " encoded with schema id " + id
                    + "; the id does not match the bytes that follow it");
        }
        return record;
    }

    private DatumReader<T> readerFor(int id, String topic) {
        DatumReader<T> reader = readersById.get(id);
        if (reader != null) {
            return reader;
        }
        Schema writerSchema;
        try {
            writerSchema = registry.schemaById(id);
        } catch (SchemaRegistryException e) {
            throw new SerializationException("cannot read a record from topic " + topic + ": " + e.getMessage(), e);
        }
        SchemaCompatibility.SchemaPairCompatibility compatibility =
                SchemaCompatibility.checkReaderWriterCompatibility(readerSchema, writerSchema);
        if (compatibility.getType() != SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
            throw new SerializationException("record from topic " + topic + " was written with schema id "
                    + id + " (" + writerSchema.getFullName() + "), which cannot be read as "
                    + readerSchema.getFullName() + ": " + firstIncompatibility(compatibility));
        }
        reader = new SpecificDatumReader<>(writerSchema, readerSchema, model);
        DatumReader<T> previous = readersById.putIfAbsent(id, reader);
        return previous != null ? previous : reader;
    }

    private static String firstIncompatibility(SchemaCompatibility.SchemaPairCompatibility result) {
        return result.getResult().getIncompatibilities().stream()
                .findFirst()
                .map(i -> i.getType() + " at " + i.getLocation() + " (" + i.getMessage() + ")")
                .orElse(result.getDescription());
    }

    private static boolean isEnd(BinaryDecoder decoder) {
        try {
            return decoder.isEnd();
        } catch (IOException e) {
            return false; // cannot happen for a byte-array source
        }
    }
}
