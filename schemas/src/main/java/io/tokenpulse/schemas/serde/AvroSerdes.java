package io.tokenpulse.schemas.serde;

import io.tokenpulse.schemas.registry.SchemaRegistry;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/**
 * Builds Kafka {@link Serde}s for Avro-generated classes in the Confluent wire format. Subjects
 * follow Confluent's default naming: {@code <topic>-value} and {@code <topic>-key}.
 */
public final class AvroSerdes {
    private AvroSerdes() {}

    /**
     * A serde for records of {@code type} under {@code subject}.
     *
     * @param autoRegister register the schema on first use (embedded platform) instead of requiring
     *     it to be registered already (production)
     */
    public static <T extends SpecificRecord> Serde<T> serde(
            SchemaRegistry registry, Class<T> type, String subject, boolean autoRegister) {
        return Serdes.serdeFrom(
                new AvroSerializer<>(registry, type, subject, autoRegister), new AvroDeserializer<>(registry, type));
    }

    /** The subject of the values of {@code topic}. */
    public static String valueSubject(String topic) {
        return topic + "-value";
    }

    /** The subject of the keys of {@code topic}, for topics with Avro keys. */
    public static String keySubject(String topic) {
        return topic + "-key";
    }
}
