package io.tokenpulse.aggregator.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.tokenpulse.platform.Platform;
import io.tokenpulse.schemas.TopicAdmin;
import io.tokenpulse.schemas.Topics;
import io.tokenpulse.schemas.registry.SchemaRegistryClient;
import io.tokenpulse.schemas.registry.SchemaRegistrySettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One aggregator after another on the same broker, as consecutive 'tokenpulse bench' runs start them. */
class AggregatorRestartIT {

    @TempDir
    Path dir;

    @Test
    void theNextAggregatorRunsWithinSecondsOfThePreviousOneClosing() throws Exception {
        try (Platform platform = Platform.start(new Platform.Settings(dir.resolve("kafka"), 0, 0))) {
            Topics topics = Topics.create(
                    "it.",
                    new SchemaRegistryClient(
                            SchemaRegistrySettings.of(platform.registryUrl().toString())),
                    true);
            Properties client = new Properties();
            client.put("bootstrap.servers", platform.bootstrapServers());
            TopicAdmin.ensureExist(topics, client, 1, (short) 1, Duration.ofSeconds(30));
            StreamsSettings settings =
                    StreamsSettings.defaults(platform.bootstrapServers()).withStateDir(dir.resolve("state"));
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
