package io.tokenpulse.producer.publish;

import io.tokenpulse.schemas.Topics;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * Where and how an {@link EventPublisher} writes.
 *
 * @param bootstrapServers Kafka's bootstrap.servers
 * @param clientId         client.id, shown in the broker's metrics and logs
 * @param overrides        further producer settings (security, a larger buffer, ...); they win over
 *                         the defaults below
 * @param queueCapacity    records the queue between the timing threads and the sender thread holds
 *                         (rounded up to a power of two); beyond it records are counted as
 *                         {@link DeliveryFailure#BUFFER_FULL}
 * @param spoolDir         where the publisher keeps, in a folder of its own, the records Kafka cannot
 *                         take while it is away (nothing is written while Kafka keeps up)
 * @param spoolMaxBytes    the most the spool holds; beyond it records are counted as
 *                         {@link DeliveryFailure#SPOOL_FULL}
 * @param chunkRecords     streamed events as batches per request (the default) or a record each
 */
public record PublisherSettings(
        String bootstrapServers,
        String clientId,
        Map<String, String> overrides,
        int queueCapacity,
        Path spoolDir,
        long spoolMaxBytes,
        ChunkRecords chunkRecords) {

    /** 2^20 records: about 50 s of 20 000 chunks/s while the sender waits for Kafka, about 100 MiB at most. */
    public static final int DEFAULT_QUEUE_CAPACITY = 1 << 20;
    /**
     * 2 GiB: ten minutes of 20 000 chunks/s at the ~100 bytes a spooled chunk record takes (run id,
     * request key, Avro value and framing), with room to spare.
     */
    public static final long DEFAULT_SPOOL_MAX_BYTES = 2L << 30;
    /** {@code ~/.tokenpulse/spool}. */
    public static final Path DEFAULT_SPOOL_DIR = Path.of(System.getProperty("user.home"), ".tokenpulse", "spool");

    public PublisherSettings {
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        Objects.requireNonNull(clientId, "clientId");
        overrides = Map.copyOf(overrides);
        Objects.requireNonNull(spoolDir, "spoolDir");
        Objects.requireNonNull(chunkRecords, "chunkRecords");
        if (spoolMaxBytes < 0) {
            throw new IllegalArgumentException("the spool size must be >= 0 bytes; got " + spoolMaxBytes);
        }
        if (bootstrapServers.isBlank()) {
            throw new IllegalArgumentException("Kafka bootstrap servers are empty: give host:port");
        }
        if (queueCapacity < 2) {
            throw new IllegalArgumentException("the publish queue must hold at least 2 records; got " + queueCapacity);
        }
        checkBufferHoldsABatch(producerProperties(bootstrapServers, clientId, overrides));
    }

    public static PublisherSettings of(String bootstrapServers) {
        return new PublisherSettings(
                bootstrapServers,
                "tokenpulse-producer",
                Map.of(),
                DEFAULT_QUEUE_CAPACITY,
                DEFAULT_SPOOL_DIR,
                DEFAULT_SPOOL_MAX_BYTES,
                ChunkRecords.DEFAULT);
    }

    public PublisherSettings withOverrides(Map<String, String> newOverrides) {
        return new PublisherSettings(
                bootstrapServers, clientId, newOverrides, queueCapacity, spoolDir, spoolMaxBytes, chunkRecords);
    }

    public PublisherSettings withQueueCapacity(int capacity) {
        return new PublisherSettings(
                bootstrapServers, clientId, overrides, capacity, spoolDir, spoolMaxBytes, chunkRecords);
    }

    public PublisherSettings withSpool(Path dir, long maxBytes) {
        return new PublisherSettings(bootstrapServers, clientId, overrides, queueCapacity, dir, maxBytes, chunkRecords);
    }

    public PublisherSettings withChunkRecords(ChunkRecords records) {
        return new PublisherSettings(
                bootstrapServers, clientId, overrides, queueCapacity, spoolDir, spoolMaxBytes, records);
    }

    /** How long the sender thread (and {@link EventPublisher#open}) may wait for metadata or buffer space. */
    long maxBlockMs() {
        return Long.parseLong(producerProperties()
                .getProperty(ProducerConfig.MAX_BLOCK_MS_CONFIG)
                .strip());
    }

    /** The KafkaProducer configuration: defaults with their reasons, then the overrides. */
    Properties producerProperties() {
        return producerProperties(bootstrapServers, clientId, overrides);
    }

    private static Properties producerProperties(
            String bootstrapServers, String clientId, Map<String, String> overrides) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        // Raw events are the record of the run: no duplicates on retry, none lost on a leader change.
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        // lz4: most of zstd's gain on these small repetitive records for a fraction of the CPU.
        props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        // Batch records for up to 200 ms. Each batch (one per partition) and each produce request costs
        // this producer's network thread, and the broker's network thread and a request handler, work of
        // their own: at 1 000 events/s 200 ms rather than 50 ms took ~14 µs of CPU per event off those
        // (docs/performance.md, "Producer linger"). A record may wait that long before it leaves; the
        // aggregator fetches every 0.5 s at such rates anyway, and a run's end flushes at once.
        // --kafka-property linger.ms=N changes it.
        props.put(ProducerConfig.LINGER_MS_CONFIG, "200");
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, String.valueOf(256 * 1024));
        // send() runs on EventPublisher's own sender thread, never on a timing thread: it may wait for
        // metadata (a topic idle past metadata.max.idle.ms) or buffer space. Past this the record goes
        // to the spool instead; the queue in front holds 2^20 records, ~50 s of 20 000 chunks/s.
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "10000");
        // A record in Kafka's buffer waits for the broker however long it is away, in order; what
        // does not fit in the buffer goes to the spool. Records still unsent when the publisher
        // closes are counted as CLOSED.
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Integer.toString(Integer.MAX_VALUE));
        // A finish carries the generated text (up to Topics.MAX_GENERATED_TEXT_BYTES): Kafka's 1 MiB
        // default would refuse a long answer's record; the topics accept this much too.
        props.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Integer.toString(Topics.MAX_RECORD_BYTES));
        // Kafka's own buffer behind the queue: enough for minutes of chunks at 100k/s.
        props.put(ProducerConfig.BUFFER_MEMORY_CONFIG, String.valueOf(128L * 1024 * 1024));
        props.putAll(overrides);
        return props;
    }

    /** A buffer smaller than one batch fails every record: say so before the run rather than count it after. */
    private static void checkBufferHoldsABatch(Properties props) {
        long buffer = sizeSetting(props, ProducerConfig.BUFFER_MEMORY_CONFIG);
        long batch = sizeSetting(props, ProducerConfig.BATCH_SIZE_CONFIG);
        if (buffer < batch) {
            throw new IllegalArgumentException("Kafka property buffer.memory=" + buffer + " is smaller than batch.size="
                    + batch + ": no record would fit; raise buffer.memory or lower batch.size");
        }
    }

    private static long sizeSetting(Properties props, String name) {
        String value = props.getProperty(name).strip();
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Kafka property " + name + "=" + value + " is not a number of bytes");
        }
    }
}
