package io.tokenpulse.schemas.serde;

import io.tokenpulse.schemas.registry.SchemaRegistry;
import io.tokenpulse.schemas.registry.SchemaRegistryException;
import java.io.IOException;
import java.util.OptionalInt;
import org.apache.avro.Schema;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Writes Avro-generated records of class {@code T} in the Confluent wire format (magic byte 0,
 * 4-byte big-endian schema id, Avro binary).
 *
 * <p>The schema id is resolved once, on the first record, under the fixed {@code subject} given at
 * construction: with {@code autoRegister} by registering the class's schema, otherwise by looking
 * it up (production: schemas are registered by a deliberate step, and a missing one fails with a
 * message saying so). The subject is fixed rather than derived from the topic of each call so that
 * Kafka Streams' repartition and changelog topics reuse the id of the real topic instead of
 * needing subjects of their own.
 *
 * <p>Thread-safe, and cheap per record: no registry call after the first, and each thread reuses
 * its own output buffer and encoder ({@link ThreadAvroBuffer}). A null record serializes to null (a tombstone). A record that
 * Avro cannot write (a required field left null) fails with a {@link SerializationException}.
 */
public final class AvroSerializer<T extends SpecificRecord> implements Serializer<T> {
    private static final int NO_ID = -1;
    private final SchemaRegistry registry;
    private final String subject;
    private final boolean autoRegister;
    private final Schema schema;
    private final DatumWriter<T> writer;
    private volatile int schemaId = NO_ID;

    /**
     * @param type the generated class whose records this serializer writes
     * @param subject the registry subject of the topic, {@code <topic>-value} or {@code <topic>-key}
     * @param autoRegister register the schema on first use instead of only looking it up
     */
    public AvroSerializer(SchemaRegistry registry, Class<T> type, String subject, boolean autoRegister) {
        this.registry = registry;
        this.subject = subject;
        this.autoRegister = autoRegister;
        SpecificData model = SpecificData.getForClass(type);
        this.schema = model.getSchema(type);
        this.writer = new SpecificDatumWriter<>(schema, model);
    }

    /** The subject this serializer registers or looks up its schema under. */
    public String subject() {
        return subject;
    }

    @Override
    public byte[] serialize(String topic, T record) {
        if (record == null) {
            return null;
        }
        int id = schemaId();
        try {
            byte[] bytes = ThreadAvroBuffer.write(writer, record, WireFormat.HEADER_BYTES);
            WireFormat.writeHeader(bytes, id);
            return bytes;
        } catch (IOException | RuntimeException e) {
            // Avro reports a required field left null as a NullPointerException naming the field.
            throw new SerializationException(
                    "cannot write a " + schema.getName() + " record to topic " + topic + ": " + e.getMessage(), e);
        }
    }

    /**
     * The schema id this serializer writes, registering or looking it up now if not done yet; lets a
     * run check the registry before its first request instead of failing on its first record.
     *
     * @throws SerializationException when the registry cannot be reached or lacks the schema
     */
    public int schemaId() {
        int id = schemaId;
        if (id != NO_ID) {
            return id;
        }
        synchronized (this) { // one registry round trip, not one per thread racing on the first record
            if (schemaId == NO_ID) {
                schemaId = resolveId();
            }
            return schemaId;
        }
    }

    private int resolveId() {
        try {
            if (autoRegister) {
                return registry.register(subject, schema);
            }
            OptionalInt id = registry.idOf(subject, schema);
            if (id.isEmpty()) {
                throw new SerializationException("the schema of " + schema.getFullName()
                        + " is not registered under subject " + subject + "; register it first"
                        + " or turn on auto-registration");
            }
            return id.getAsInt();
        } catch (SchemaRegistryException e) {
            throw new SerializationException(e.getMessage(), e);
        }
    }
}
