package io.tokenpulse.aggregator.topology;

import io.tokenpulse.schemas.logging.RepeatedWarning;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.StreamsMetrics;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decodes a source record's value, or marks it for the dead-letter topic.
 *
 * <p>Why not a {@code DeserializationExceptionHandler}: in Kafka Streams 4.1 a handler can only
 * log and continue or fail; writing the record to a dead-letter topic from the handler (KIP-1034)
 * arrives in 4.2. Reading values as bytes and decoding here lets the dead-letter record go out in
 * the same exactly-once transaction as everything else, and works in the TopologyTestDriver.
 *
 * <p>A failed record keeps its bytes and gets headers {@link #REASON}, {@link #SOURCE_TOPIC},
 * {@link #SOURCE_PARTITION}, {@link #SOURCE_OFFSET}; it is counted in the Kafka Streams metric
 * {@code dead-lettered-records-total} (group {@code stream-tokenpulse-metrics}, tag
 * {@code tokenpulse-id} = source topic), which Micrometer's {@code KafkaStreamsMetrics} exposes.
 */
final class DeadLetters {
    static final String REASON = "tokenpulse.dlq.reason";
    static final String SOURCE_TOPIC = "tokenpulse.dlq.topic";
    static final String SOURCE_PARTITION = "tokenpulse.dlq.partition";
    static final String SOURCE_OFFSET = "tokenpulse.dlq.offset";
    static final String METRIC_SCOPE = "tokenpulse";
    static final String METRIC_OPERATION = "dead-lettered-records";

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetters.class);
    /** One for the whole process: a flood of junk on any topic writes a few lines, then a count a minute. */
    private static final RepeatedWarning WARNING = new RepeatedWarning(LOG, "dead-lettered records");

    private DeadLetters() {}

    /** A decoded value that goes on, or the raw bytes of one that could not be decoded. */
    record Decoded<V>(V value, byte[] raw) {
        boolean ok() {
            return value != null;
        }
    }

    static final class Decode<V> implements FixedKeyProcessor<String, byte[], Decoded<V>> {
        private final Deserializer<V> deserializer;
        private FixedKeyProcessorContext<String, Decoded<V>> context;
        private Sensor deadLettered;

        Decode(Deserializer<V> deserializer) {
            this.deserializer = deserializer;
        }

        @Override
        public void init(FixedKeyProcessorContext<String, Decoded<V>> context) {
            this.context = context;
        }

        @Override
        public void process(FixedKeyRecord<String, byte[]> record) {
            String topic = context.recordMetadata().map(RecordMetadata::topic).orElse("unknown");
            Optional<String> failure = Optional.empty();
            V value = null;
            try {
                value = record.value() == null
                        ? null
                        : deserializer.deserialize(topic, record.headers(), record.value());
                if (value == null) {
                    failure = Optional.of("empty value (tombstone) where a record was expected");
                }
            } catch (RuntimeException e) {
                failure = Optional.of(e.getClass().getSimpleName() + ": " + e.getMessage());
            }
            if (failure.isEmpty()) {
                context.forward(record.withValue(new Decoded<>(value, null)));
                return;
            }
            markDeadLetter(record, topic, failure.get());
        }

        private void markDeadLetter(FixedKeyRecord<String, byte[]> record, String topic, String reason) {
            RecordMetadata where = context.recordMetadata().orElseThrow();
            record.headers()
                    .add(REASON, utf8(reason))
                    .add(SOURCE_TOPIC, utf8(topic))
                    .add(SOURCE_PARTITION, utf8(Integer.toString(where.partition())))
                    .add(SOURCE_OFFSET, utf8(Long.toString(where.offset())));
            if (deadLettered == null) { // created lazily: the source topic is known only once a record arrives
                deadLettered = sensor(context.metrics(), topic);
            }
            deadLettered.record();
            WARNING.warn("dead-lettered record {}-{}@{}: {}", topic, where.partition(), where.offset(), reason);
            context.forward(
                    record.withValue(new Decoded<>(null, record.value() == null ? new byte[0] : record.value())));
        }
    }

    /** The counter of records dead-lettered from {@code sourceTopic} (one per thread and topic, shared). */
    static Sensor sensor(StreamsMetrics metrics, String sourceTopic) {
        return metrics.addRateTotalSensor(METRIC_SCOPE, sourceTopic, METRIC_OPERATION, Sensor.RecordingLevel.INFO);
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
