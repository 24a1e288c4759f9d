package io.tokenpulse.platform.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.tokenpulse.schemas.TopicAdmin;
import io.tokenpulse.schemas.TopicSpec;
import io.tokenpulse.schemas.Topics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** TopicAdmin against a real broker: what it creates on a cluster that already has some of the topics. */
class TopicAdminIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @TempDir
    Path dataDir;

    /** A cluster set up with 5 partitions before chunk-batches existed, upgraded: the new topic joins with 5. */
    @Test
    void aMissingCoPartitionedTopicGetsThePartitionsOfTheExistingOnes() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start(KafkaSettings.of(dataDir));
                Admin admin = Admin.create(kafka.clientProperties())) {
            Topics topics = Topics.create("up.", null, false); // names only: no record is written
            admin.createTopics(List.of(
                            new NewTopic(topics.requests().name(), 5, (short) 1),
                            new NewTopic(topics.chunks().name(), 5, (short) 1)))
                    .all()
                    .get();
            Properties client = new Properties();
            client.putAll(kafka.clientProperties());

            TopicAdmin.ensureExist(topics, client, 3, (short) 1, TIMEOUT);

            Map<String, Integer> partitions = new TreeMap<>();
            admin.describeTopics(topics.all().stream().map(TopicSpec::name).toList())
                    .allTopicNames()
                    .get()
                    .forEach((name, description) ->
                            partitions.put(name, description.partitions().size()));
            assertThat(partitions)
                    .containsEntry(topics.requests().name(), 5)
                    .containsEntry(topics.chunks().name(), 5)
                    .containsEntry(topics.chunkBatches().name(), 5)
                    .containsEntry(topics.runs().name(), 3)
                    .containsEntry(topics.requestMetrics().name(), 3);
        }
    }
}
