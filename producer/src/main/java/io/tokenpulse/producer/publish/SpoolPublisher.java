package io.tokenpulse.producer.publish;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Hands the records a run left in its spool ({@link DeliveryFailure#SPOOL_UNDRAINED}) to Kafka, in
 * their order, with the publisher's guarantees (acks=all, idempotence), then deletes the folder. The
 * records are already serialized (Confluent wire format, schema ids resolved): no registry is needed.
 * An aggregator still running completes the run once its RunFinished and requests arrive.
 */
public final class SpoolPublisher {

    private SpoolPublisher() {}

    /**
     * @param dir              the folder bench printed
     * @param clientProperties Kafka client properties, {@code bootstrap.servers} included
     * @return the records Kafka acknowledged
     * @throws IllegalArgumentException with one line when {@code dir} is not a kept spool
     * @throws IllegalStateException with one line when Kafka refused a record (the folder is kept)
     */
    public static long publish(Path dir, Properties clientProperties, Duration timeout) {
        Properties props = new Properties();
        props.putAll(clientProperties);
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, String.valueOf(timeout.toMillis()));
        props.putIfAbsent(
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, String.valueOf(Math.max(timeout.toMillis(), 30_000)));
        props.putIfAbsent(
                ProducerConfig.MAX_REQUEST_SIZE_CONFIG, String.valueOf(io.tokenpulse.schemas.Topics.MAX_RECORD_BYTES));
        AtomicLong acknowledged = new AtomicLong();
        AtomicReference<Exception> firstError = new AtomicReference<>();
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            Spool.readKept(
                    dir,
                    record -> producer.send(
                            new ProducerRecord<>(record.topic(), record.key(), record.value()), (metadata, error) -> {
                                if (error == null) {
                                    acknowledged.incrementAndGet();
                                } else {
                                    firstError.compareAndSet(null, error);
                                }
                            }));
            producer.flush();
        } catch (org.apache.kafka.common.KafkaException e) {
            throw new IllegalStateException(
                    "Kafka at " + props.get(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG)
                            + " did not take the spool's records (" + e.getMessage() + "); " + dir + " is kept",
                    e);
        }
        if (firstError.get() != null) {
            throw new IllegalStateException(acknowledged.get() + " records published, but Kafka refused others ("
                    + firstError.get().getMessage() + "); " + dir + " is kept: publishing it again may duplicate");
        }
        delete(dir);
        return acknowledged.get();
    }

    private static void delete(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("published, but could not delete " + dir + ": " + e.getMessage(), e);
        }
    }
}
