package io.tokenpulse.bench.loadgen;

import io.tokenpulse.platform.Platform;
import io.tokenpulse.producer.publish.EventPublisher;
import io.tokenpulse.producer.publish.PublisherSettings;
import io.tokenpulse.schemas.TopicAdmin;
import io.tokenpulse.schemas.Topics;
import io.tokenpulse.schemas.registry.SchemaRegistryClient;
import io.tokenpulse.schemas.registry.SchemaRegistrySettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.kafka.clients.CommonClientConfigs;

/**
 * The embedded broker and registry in a fresh temporary directory, with the pipeline's topics
 * (3 partitions, as {@code tokenpulse bench} creates them): the same wiring as the CLI's
 * {@code Pipeline}, without a user's options.
 */
final class BenchPipeline implements AutoCloseable {

    private final Platform platform;
    private final Topics topics;
    private final Path dataDir;

    private BenchPipeline(Platform platform, Topics topics, Path dataDir) {
        this.platform = platform;
        this.topics = topics;
        this.dataDir = dataDir;
    }

    static BenchPipeline start() throws IOException {
        Path dir = Files.createTempDirectory("tokenpulse-bench-");
        Platform platform = Platform.start(new Platform.Settings(dir.resolve("platform"), 0, 0));
        try {
            Topics topics = Topics.create(
                    Topics.DEFAULT_PREFIX,
                    new SchemaRegistryClient(
                            SchemaRegistrySettings.of(platform.registryUrl().toString())),
                    true);
            topics.resolveSchemaIds();
            BenchPipeline pipeline = new BenchPipeline(platform, topics, dir);
            TopicAdmin.ensureExist(topics, pipeline.clientProperties(), 3, (short) 1, Duration.ofSeconds(30));
            return pipeline;
        } catch (RuntimeException e) {
            platform.close();
            throw e;
        }
    }

    Topics topics() {
        return topics;
    }

    String bootstrapServers() {
        return platform.bootstrapServers();
    }

    Path dataDir() {
        return dataDir;
    }

    Properties clientProperties() {
        Properties props = new Properties();
        props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, platform.bootstrapServers());
        return props;
    }

    /** A publisher with the load generator's production defaults (idempotent, acks=all, lz4, 50 ms linger). */
    EventPublisher openPublisher() {
        return EventPublisher.open(PublisherSettings.of(platform.bootstrapServers()), topics);
    }

    /** Stops the platform and deletes its directory (a level of 1 600 streams leaves ~100 MB). */
    @Override
    public void close() throws IOException {
        platform.close();
        try (Stream<Path> files = Files.walk(dataDir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }
}
