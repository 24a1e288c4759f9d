package io.tokenpulse.platform;

import io.tokenpulse.platform.kafka.EmbeddedKafka;
import io.tokenpulse.platform.kafka.KafkaSettings;
import io.tokenpulse.platform.registry.LocalSchemaRegistry;
import io.tokenpulse.platform.security.CredentialFiles;
import io.tokenpulse.platform.security.SaslUsers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.util.Properties;

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
     * @param secure SASL/SCRAM and ACLs on the broker, users and their credential files in the data dir
     *     ({@link CredentialFiles}); a data dir is secured from its first start or never
     */
    public record Settings(Path dataDir, int kafkaPort, int registryPort, boolean secure) {
        /** A plaintext platform. */
        public Settings(Path dataDir, int kafkaPort, int registryPort) {
            this(dataDir, kafkaPort, registryPort, false);
        }

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
        KafkaSettings kafkaSettings = KafkaSettings.of(settings.dataDir()).withKafkaPort(settings.kafkaPort());
        if (settings.secure()) {
            kafkaSettings = kafkaSettings.withSaslUsers(secureUsers(kafkaSettings.dataDir()));
        } else if (CredentialFiles.exist(kafkaSettings.dataDir())) {
            throw new IllegalArgumentException("the data dir " + kafkaSettings.dataDir()
                    + " holds a secured broker: start it with tokenpulse platform --secure and pass the printed"
                    + " flags, or use another --data-dir");
        }
        EmbeddedKafka kafka = EmbeddedKafka.start(kafkaSettings);
        try {
            LocalSchemaRegistry registry = LocalSchemaRegistry.start(
                    kafka.clientProperties(),
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

    /** A secured data dir keeps its users; a plaintext one cannot be secured later (its metadata has none). */
    private static SaslUsers secureUsers(Path dataDir) {
        if (EmbeddedKafka.isFormatted(dataDir) && !CredentialFiles.exist(dataDir)) {
            throw new IllegalArgumentException("the data dir " + dataDir
                    + " holds a broker started without --secure, whose users cannot be added later: pass a new"
                    + " --data-dir for a secured platform");
        }
        return CredentialFiles.loadOrCreate(dataDir);
    }

    /** {@code 127.0.0.1:PORT} of the broker. */
    public String bootstrapServers() {
        return kafka.bootstrapServers();
    }

    /**
     * Properties with which a client has full rights: {@code bootstrap.servers}, plus the admin's SASL
     * settings on a secured platform (secret: never print them).
     */
    public Properties adminClientProperties() {
        Properties properties = new Properties();
        properties.putAll(kafka.clientProperties());
        return properties;
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
