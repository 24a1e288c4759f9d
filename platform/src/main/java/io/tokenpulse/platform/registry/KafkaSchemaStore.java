package io.tokenpulse.platform.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tokenpulse.platform.registry.StoreRecord.Config;
import io.tokenpulse.platform.registry.StoreRecord.SchemaVersion;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the registry's log in a compacted, single-partition Kafka topic, so schema ids survive a
 * restart. Key: {@link StoreRecord#key()} as UTF-8 text; value: the entry as a JSON object with a
 * {@code type} field ({@code SCHEMA} or {@code CONFIG}). One partition keeps the log in order; a
 * single registry writes to a topic at a time (there is no leader election between instances).
 */
final class KafkaSchemaStore implements SchemaStore {
    private static final Logger log = LoggerFactory.getLogger(KafkaSchemaStore.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Map<String, Object> kafkaClientProperties;
    private final String bootstrapServers;
    private final String topic;
    private final Duration timeout;
    private KafkaProducer<byte[], byte[]> producer;

    /** @param kafkaClientProperties {@code bootstrap.servers} and any security settings */
    KafkaSchemaStore(Map<String, Object> kafkaClientProperties, String topic, Duration timeout) {
        this.kafkaClientProperties = Map.copyOf(kafkaClientProperties);
        this.bootstrapServers = String.valueOf(kafkaClientProperties.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG));
        this.topic = topic;
        this.timeout = timeout;
    }

    @Override
    public List<StoreRecord> readAll() throws IOException {
        ensureTopic();
        List<StoreRecord> records = new ArrayList<>();
        TopicPartition partition = new TopicPartition(topic, 0);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerConfig())) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long end = consumer.endOffsets(List.of(partition), timeout).get(partition);
            long deadlineNs = System.nanoTime() + timeout.toNanos();
            while (consumer.position(partition, timeout) < end) {
                if (System.nanoTime() > deadlineNs) {
                    throw new IOException("Reading schema topic " + topic + " took longer than " + timeout.toSeconds()
                            + " s; is the broker at " + bootstrapServers + " healthy?");
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    decode(record).ifPresent(records::add);
                }
            }
        } catch (org.apache.kafka.common.KafkaException e) {
            throw new IOException(
                    "Cannot read schema topic " + topic + " from " + bootstrapServers + ": " + e.getMessage(), e);
        }
        producer = new KafkaProducer<>(producerConfig());
        return records;
    }

    @Override
    public void append(StoreRecord record) throws IOException {
        if (producer == null) {
            throw new IllegalStateException("readAll() must run before append()");
        }
        byte[] key = record.key().getBytes(StandardCharsets.UTF_8);
        try {
            producer.send(new ProducerRecord<>(topic, 0, key, encode(record)))
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted while writing to schema topic " + topic, e);
        } catch (ExecutionException | TimeoutException e) {
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            throw new IOException("Cannot write to schema topic " + topic + ": " + cause, cause);
        }
    }

    @Override
    public void close() {
        if (producer != null) {
            producer.close(timeout);
        }
    }

    /** Creates the topic compacted with one partition, or checks that an existing one is so. */
    private void ensureTopic() throws IOException {
        Properties config = new Properties();
        config.putAll(kafkaClientProperties);
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        try (Admin admin = Admin.create(config)) {
            NewTopic wanted = new NewTopic(topic, Optional.of(1), Optional.empty())
                    .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
            try {
                admin.createTopics(List.of(wanted)).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                log.info("Created schema topic {} (compacted, 1 partition)", topic);
                return;
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw e;
                }
            }
            TopicDescription description = admin.describeTopics(List.of(topic))
                    .allTopicNames()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .get(topic);
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
            String policy = admin.describeConfigs(List.of(resource))
                    .all()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .get(resource)
                    .get(TopicConfig.CLEANUP_POLICY_CONFIG)
                    .value();
            // Ids must never be lost, and order matters: refuse a topic that could drop or reorder entries.
            if (description.partitions().size() != 1 || !policy.equals(TopicConfig.CLEANUP_POLICY_COMPACT)) {
                throw new IOException(
                        "Schema topic " + topic + " must have 1 partition and cleanup.policy=compact, has "
                                + description.partitions().size() + " partitions and cleanup.policy=" + policy
                                + "; point the registry at another topic");
            }
        } catch (ExecutionException | TimeoutException e) {
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            throw new IOException(
                    "Cannot create or check schema topic " + topic + " on " + bootstrapServers + ": " + cause, cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted while checking schema topic " + topic, e);
        }
    }

    private Properties consumerConfig() {
        Properties config = new Properties();
        config.putAll(kafkaClientProperties);
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        // Assigned, not subscribed: no group, nothing committed; every start reads the whole log.
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        return config;
    }

    private Properties producerConfig() {
        Properties config = new Properties();
        config.putAll(kafkaClientProperties);
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        // A registered id must survive a broker failure and never be written twice.
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        // Each write is awaited on its own: batching would only add Kafka 4's default 5 ms linger.
        config.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) Math.min(timeout.toMillis(), 30_000));
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, timeout.toMillis());
        return config;
    }

    static byte[] encode(StoreRecord record) throws IOException {
        ObjectNode node = JSON.createObjectNode();
        if (record instanceof SchemaVersion version) {
            node.put("type", "SCHEMA");
            node.put("subject", version.subject());
            node.put("version", version.version());
            node.put("id", version.id());
            node.put("schema", version.schema());
            node.put("deleted", version.deleted());
        } else if (record instanceof Config config) {
            node.put("type", "CONFIG");
            node.put("subject", config.subject());
            node.put("compatibilityLevel", config.level().name());
        }
        return JSON.writeValueAsBytes(node);
    }

    /** Entries this version cannot read are logged and skipped, never guessed at. */
    private Optional<StoreRecord> decode(ConsumerRecord<byte[], byte[]> record) {
        if (record.value() == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(decode(record.value()));
        } catch (IOException | RuntimeException | RegistryException e) {
            log.warn(
                    "Skipping unreadable entry at offset {} of schema topic {}: {}",
                    record.offset(),
                    topic,
                    e.getMessage());
            return Optional.empty();
        }
    }

    static StoreRecord decode(byte[] value) throws IOException, RegistryException {
        JsonNode node = JSON.readTree(value);
        String subject = node.path("subject").isTextual() ? node.get("subject").asText() : null;
        return switch (node.path("type").asText()) {
            case "SCHEMA" ->
                new SchemaVersion(
                        subject,
                        node.path("version").asInt(),
                        node.path("id").asInt(),
                        node.path("schema").asText(),
                        node.path("deleted").asBoolean());
            case "CONFIG" ->
                new Config(
                        subject,
                        CompatibilityRules.parse(node.path("compatibilityLevel").asText()));
            default ->
                throw new IOException("unknown entry type '" + node.path("type").asText() + "'");
        };
    }
}
