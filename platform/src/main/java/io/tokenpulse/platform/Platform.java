package io.tokenpulse.platform;

import io.tokenpulse.platform.kafka.EmbeddedKafka;
import io.tokenpulse.platform.kafka.KafkaSettings;
import io.tokenpulse.platform.registry.LocalSchemaRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;

/**
 * The embedded default: a real one-node KRaft broker and the local Schema Registry, started
 * together on loopback and stopped together. Production uses a real Kafka cluster and Confluent
 * Schema Registry instead (or another compatible registry).
 */
public final class Platform implements AutoCloseable {

    private final EmbeddedKafka kafka;
    private final LocalSchemaRegistry registry;

    private Platform(EmbeddedKafka kafka, LocalSchemaRegistry registry) {
        this.kafka = kafka;
        this.registry = registry;
    }

    /**
     * What to start.
     *
     * @param dataDir broker storage (a later run reads an earlier run's topics from here)
     * @param kafkaPort client port of the broker, 0 for a free one
     * @param registryPort HTTP port of the registry, 0 for a free one
     */
    public record Settings(Path dataDir, int kafkaPort, int registryPort) {
        public Settings {
            if (registryPort < 0 || registryPort > 65535) {
                throw new IllegalArgumentException("Port " + registryPort
                        + " is out of range: pass --registry-port between 1 and 65535, or omit it to pick a free one");
            }
        }

        /** {@code ~/.tokenpulse/platform}: the default data directory. */
        public static Path defaultDataDir() {
            return Path.of(System.getProperty("user.home"), ".tokenpulse", "platform");
        }
    }

    /** Starts broker then registry; returns once both answer. */
    public static Platform start(Settings settings) {
        EmbeddedKafka kafka =
                EmbeddedKafka.start(KafkaSettings.of(settings.dataDir()).withKafkaPort(settings.kafkaPort()));
        try {
            LocalSchemaRegistry registry = LocalSchemaRegistry.start(
                    kafka.bootstrapServers(),
                    LocalSchemaRegistry.DEFAULT_TOPIC,
                    new InetSocketAddress("127.0.0.1", settings.registryPort()));
            return new Platform(kafka, registry);
        } catch (BindException e) {
            kafka.close();
            throw new IllegalStateException(
                    "port " + settings.registryPort()
                            + " on 127.0.0.1 is in use; pass another --registry-port or omit it to pick a free one",
                    e);
        } catch (IOException e) {
            kafka.close();
            throw new UncheckedIOException("the local schema registry did not start: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            kafka.close();
            throw e;
        }
    }

    /** {@code 127.0.0.1:PORT} of the broker. */
    public String bootstrapServers() {
        return kafka.bootstrapServers();
    }

    /** Base URL of the local Schema Registry. */
    public URI registryUrl() {
        return registry.url();
    }

    /** Stops the registry, then the broker (clean shutdown: the next start needs no recovery). */
    @Override
    public void close() {
        try {
            registry.close();
        } finally {
            kafka.close();
        }
    }
}
