package io.tokenpulse.platform.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** Plain Kafka clients against a test broker: string keys and values, bounded waits. */
final class KafkaTestClients {

    private KafkaTestClients() {}

    static void createTopics(String bootstrapServers, String... topics) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrapServers))) {
            List<NewTopic> newTopics = new ArrayList<>();
            for (String topic : topics) {
                newTopics.add(new NewTopic(topic, 2, (short) 1));
            }
            admin.createTopics(newTopics).all().get();
        }
    }

    static Set<String> topicNames(String bootstrapServers) throws ExecutionException, InterruptedException {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrapServers))) {
            return admin.listTopics().names().get();
        }
    }

    /** The producer settings the pipeline uses: every replica acknowledges, retries never duplicate. */
    static KafkaProducer<String, String> durableProducer(String bootstrapServers, Map<String, Object> extra) {
        Map<String, Object> config = new java.util.HashMap<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ProducerConfig.ACKS_CONFIG,
                "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                true,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                StringSerializer.class));
        config.putAll(extra);
        return new KafkaProducer<>(config);
    }

    static void produce(String bootstrapServers, String topic, List<String> values) throws Exception {
        try (KafkaProducer<String, String> producer = durableProducer(bootstrapServers, Map.of())) {
            for (String value : values) {
                producer.send(new ProducerRecord<>(topic, value, value)).get();
            }
        }
    }

    /**
     * Reads {@code topic} from the start in a fresh consumer group until {@code expected} values arrived
     * or {@code timeout} passed, then reads one more short poll so that extra records would show.
     */
    static List<String> consume(
            String bootstrapServers, String topic, String isolationLevel, int expected, Duration timeout) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ConsumerConfig.GROUP_ID_CONFIG,
                "test-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                isolationLevel,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                StringDeserializer.class);
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config)) {
            consumer.subscribe(List.of(topic));
            long deadlineNs = System.nanoTime() + timeout.toNanos();
            while (values.size() < expected && System.nanoTime() < deadlineNs) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    values.add(record.value());
                }
            }
            for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                values.add(record.value());
            }
        }
        return values;
    }
}
