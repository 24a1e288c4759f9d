package io.tokenpulse.producer.publish;

import io.tokenpulse.schemas.Topics;
import org.apache.kafka.clients.producer.ProducerConfig;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

/**
 * Where and how an {@link EventPublisher} writes.
 *
 * @param bootstrapServers Kafka's bootstrap.servers
 * @param clientId         client.id, shown in the broker's metrics and logs
 * @param overrides        further producer settings (security, a larger buffer, ...); they win over
 *                         the defaults below, except max.block.ms, which must stay 0
 * @param startupTimeout   how long {@link EventPublisher#open} waits for the topics' metadata
 */
public record PublisherSettings(String bootstrapServers, String clientId, Map<String, String> overrides,
                                Duration startupTimeout) {

    public PublisherSettings {
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        Objects.requireNonNull(clientId, "clientId");
        Objects.requireNonNull(startupTimeout, "startupTimeout");
        overrides = Map.copyOf(overrides);
        if (bootstrapServers.isBlank()) {
            throw new IllegalArgumentException("Kafka bootstrap servers are empty: give host:port");
        }
        String maxBlock = overrides.get(ProducerConfig.MAX_BLOCK_MS_CONFIG);
        if (maxBlock != null && !maxBlock.strip().equals("0")) {
            throw new IllegalArgumentException("max.block.ms must stay 0 so that publishing never delays timing; got " + maxBlock);
        }
    }

    public static PublisherSettings of(String bootstrapServers) {
        return new PublisherSettings(bootstrapServers, "tokenpulse-producer", Map.of(), Duration.ofSeconds(30));
    }

    public PublisherSettings withOverrides(Map<String, String> newOverrides) {
        return new PublisherSettings(bootstrapServers, clientId, newOverrides, startupTimeout);
    }

    public PublisherSettings withStartupTimeout(Duration timeout) {
        return new PublisherSettings(bootstrapServers, clientId, overrides, timeout);
    }

    /** The KafkaProducer configuration: defaults with their reasons, then the overrides. */
    Properties producerProperties() {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        // Raw events are the record of the run: no duplicates on retry, none lost on a leader change.
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        // lz4: most of zstd's gain on these small repetitive records for a fraction of the CPU, which
        // the timing threads share.
        props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        // Thousands of chunks a second: batch them for up to 20 ms; the pipeline is not that latency-bound.
        props.put(ProducerConfig.LINGER_MS_CONFIG, "20");
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, String.valueOf(256 * 1024));
        // send() is called on the HTTP I/O threads: it must fail at once rather than wait for buffer
        // space or metadata. Records it refuses are counted, never silently dropped.
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "0");
        // A finish carries the generated text (up to Topics.MAX_GENERATED_TEXT_BYTES): Kafka's 1 MiB
        // default would refuse a long answer's record; the topics accept this much too.
        props.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Integer.toString(Topics.MAX_RECORD_BYTES));
        // The bounded in-memory queue in front of Kafka: enough for minutes of chunks at 100k/s.
        props.put(ProducerConfig.BUFFER_MEMORY_CONFIG, String.valueOf(128L * 1024 * 1024));
        props.putAll(overrides);
        return props;
    }
}
