package io.tokenpulse.aggregator.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.tokenpulse.platform.kafka.EmbeddedKafka;
import io.tokenpulse.platform.kafka.KafkaSettings;
import io.tokenpulse.platform.registry.LocalSchemaRegistry;
import io.tokenpulse.schemas.Topics;
import io.tokenpulse.schemas.registry.SchemaRegistryClient;
import io.tokenpulse.schemas.registry.SchemaRegistrySettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One aggregator after another on the same broker, as consecutive 'tokenpulse bench' runs start them. */
class AggregatorRestartIT {

    @TempDir
    Path dir;

    @Test
    void theNextAggregatorRunsWithinSecondsOfThePreviousOneClosing() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start(KafkaSettings.of(dir.resolve("kafka")));
             LocalSchemaRegistry registryServer = LocalSchemaRegistry.start(kafka.bootstrapServers())) {
            Topics topics = Topics.create("it.", new SchemaRegistryClient(
                    SchemaRegistrySettings.of(registryServer.url().toString())), true);
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
                admin.createTopics(topics.all().stream().map(t -> new NewTopic(t.name(), 1, (short) 1)).toList())
                        .all().get();
            }
            StreamsSettings settings = StreamsSettings.defaults(kafka.bootstrapServers())
                    .withStateDir(dir.resolve("state"));
            try (Aggregator first = Aggregator.start(topics, settings, new Properties())) {
                assertThat(first.awaitRunning(Duration.ofSeconds(60))).isTrue();
            }
            // A member that stays in the group on close holds the next start in a rebalance until
            // its 45 s session expires.
            try (Aggregator next = Aggregator.start(topics, settings, new Properties())) {
                assertThat(next.awaitRunning(Duration.ofSeconds(15))).isTrue();
            }
        }
    }
}
