package io.tokenpulse.platform.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tokenpulse.platform.kafka.EmbeddedKafka;
import io.tokenpulse.platform.kafka.KafkaSettings;
import io.tokenpulse.schemas.TopicSpec;
import io.tokenpulse.schemas.Topics;
import io.tokenpulse.schemas.avro.Chunk;
import io.tokenpulse.schemas.avro.RequestEvent;
import io.tokenpulse.schemas.avro.RequestMetrics;
import io.tokenpulse.schemas.avro.RunEvent;
import io.tokenpulse.schemas.avro.RunSummary;
import io.tokenpulse.schemas.avro.ServerMetric;
import io.tokenpulse.schemas.avro.WindowMetrics;
import io.tokenpulse.schemas.registry.Compatibility;
import io.tokenpulse.schemas.registry.SchemaRegistryClient;
import io.tokenpulse.schemas.registry.SchemaRegistryException;
import io.tokenpulse.schemas.registry.SchemaRegistrySettings;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The registry on a real KRaft broker: durable ids, and the project's own client and serde against it. */
class LocalSchemaRegistryIT {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final InetSocketAddress LOOPBACK = new InetSocketAddress("127.0.0.1", 0);

    @TempDir
    static Path dataDir;

    private static EmbeddedKafka kafka;

    @BeforeAll
    static void startBroker() {
        kafka = EmbeddedKafka.start(KafkaSettings.of(dataDir));
    }

    @AfterAll
    static void stopBroker() {
        kafka.close();
    }

    @Test
    void idsVersionsAndLevelsSurviveARestartOnTheSameTopic() throws Exception {
        String topic = "schemas-" + UUID.randomUUID();
        Schema first = record("First", "a");
        Schema second = record("Second", "b");
        int firstId;
        int secondId;
        try (LocalSchemaRegistry registry = LocalSchemaRegistry.start(kafka.bootstrapServers(), topic, LOOPBACK)) {
            SchemaRegistryClient client = client(registry);
            firstId = client.register("one-value", first);
            secondId = client.register("two-value", second);
            client.setCompatibility("two-value", Compatibility.FULL);
        }

        try (LocalSchemaRegistry restarted = LocalSchemaRegistry.start(kafka.bootstrapServers(), topic, LOOPBACK)) {
            SchemaRegistryClient client = client(restarted);
            assertThat(client.schemaById(firstId)).isEqualTo(first);
            assertThat(client.idOf("two-value", second)).hasValue(secondId);
            assertThat(client.register("three-value", first)).isEqualTo(firstId);
            assertThat(client.register("four-value", record("Third", "c"))).isEqualTo(Math.max(firstId, secondId) + 1);
            assertThat(client.compatibility("two-value")).contains(Compatibility.FULL);
        }
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
            assertThat(admin.describeConfigs(List.of(resource))
                            .all()
                            .get()
                            .get(resource)
                            .get(TopicConfig.CLEANUP_POLICY_CONFIG)
                            .value())
                    .isEqualTo("compact");
            assertThat(admin.describeTopics(List.of(topic))
                            .allTopicNames()
                            .get()
                            .get(topic)
                            .partitions())
                    .hasSize(1);
        }
    }

    @Test
    void aTopicThatMayDropEntriesIsRefusedWithAOneLineReason() throws Exception {
        String topic = "not-compacted-" + UUID.randomUUID();
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
        }

        assertThatThrownBy(() -> LocalSchemaRegistry.start(kafka.bootstrapServers(), topic, LOOPBACK))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("cleanup.policy=compact")
                .hasMessageContaining(topic);
    }

    @Test
    void clientAndSerdeRoundTripOneRecordOfEachGeneratedClassThroughTheBroker() throws Exception {
        try (LocalSchemaRegistry registry =
                LocalSchemaRegistry.start(kafka.bootstrapServers(), "schemas-" + UUID.randomUUID(), LOOPBACK)) {
            Topics topics = Topics.create("roundtrip.", client(registry), true);

            assertThat(roundTrip(
                            topics.runs(),
                            List.of(AvroSamples.filled(RunEvent.class, 0), AvroSamples.filled(RunEvent.class, 1))))
                    .hasSize(2);
            assertThat(roundTrip(
                            topics.requests(),
                            List.of(
                                    AvroSamples.filled(RequestEvent.class, 0),
                                    AvroSamples.filled(RequestEvent.class, 1))))
                    .hasSize(2);
            roundTrip(topics.chunks(), List.of(AvroSamples.filled(Chunk.class, 0)));
            roundTrip(topics.requestMetrics(), List.of(AvroSamples.filled(RequestMetrics.class, 0)));
            roundTrip(topics.windowMetrics(), List.of(AvroSamples.filled(WindowMetrics.class, 0)));
            roundTrip(topics.runSummaries(), List.of(AvroSamples.filled(RunSummary.class, 0)));
            roundTrip(topics.serverMetrics(), List.of(AvroSamples.filled(ServerMetric.class, 0)));
            // every value subject was registered by the serializers, nothing else
            assertThat(new RegistryHttpClient(registry.url())
                            .get("/subjects")
                            .json()
                            .size())
                    .isEqualTo(7);
        }
    }

    @Test
    void anIncompatibleSchemaFailsInTheClientWithAClearMessage() throws Exception {
        try (LocalSchemaRegistry registry =
                LocalSchemaRegistry.start(kafka.bootstrapServers(), "schemas-" + UUID.randomUUID(), LOOPBACK)) {
            SchemaRegistryClient client = client(registry);
            client.register("metrics-value", record("Metric", "ttft_ms"));
            Schema renamed = record("Metric", "ttft_seconds");

            assertThatThrownBy(() -> client.register("metrics-value", renamed))
                    .isInstanceOf(SchemaRegistryException.class)
                    .hasMessageContaining("metrics-value")
                    .hasMessageContaining("incompatible")
                    .hasMessageContaining("ttft_seconds")
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        }
    }

    private static SchemaRegistryClient client(LocalSchemaRegistry registry) {
        return new SchemaRegistryClient(SchemaRegistrySettings.of(registry.url().toString()));
    }

    /** A record with one required long field: renaming the field is a BACKWARD-incompatible change. */
    private static Schema record(String name, String field) {
        return SchemaBuilder.record(name)
                .namespace("test")
                .fields()
                .requiredLong(field)
                .endRecord();
    }

    /** Writes the values with the topic's serdes and reads them back; asserts they come back equal. */
    private static <V> List<V> roundTrip(TopicSpec<V> spec, List<V> values) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(spec.name(), 1, (short) 1)))
                    .all()
                    .get();
        }
        Map<String, Object> producerConfig = Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                kafka.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG,
                "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                true);
        try (KafkaProducer<String, V> producer = new KafkaProducer<>(
                producerConfig, spec.keySerde().serializer(), spec.valueSerde().serializer())) {
            for (V value : values) {
                producer.send(new ProducerRecord<>(spec.name(), "run-1/0", value))
                        .get();
            }
        }
        Map<String, Object> consumerConfig = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                kafka.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG,
                "test-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest");
        List<V> read = new ArrayList<>();
        try (KafkaConsumer<String, V> consumer = new KafkaConsumer<>(
                consumerConfig,
                spec.keySerde().deserializer(),
                spec.valueSerde().deserializer())) {
            consumer.subscribe(List.of(spec.name()));
            long deadlineNs = System.nanoTime() + WAIT.toNanos();
            while (read.size() < values.size() && System.nanoTime() < deadlineNs) {
                for (ConsumerRecord<String, V> record : consumer.poll(Duration.ofMillis(200))) {
                    read.add(record.value());
                }
            }
        }
        assertThat(read).as(spec.name()).containsExactlyElementsOf(values);
        return read;
    }
}
