package io.tokenpulse.platform;

import io.tokenpulse.platform.kafka.EmbeddedKafka;
import io.tokenpulse.platform.kafka.KafkaChildProcess;
import io.tokenpulse.platform.kafka.KafkaCluster;
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
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * The embedded default: a real one-node KRaft broker and the local Schema Registry, started
 * together on loopback and stopped together. Production uses a real Kafka cluster and Confluent
 * Schema Registry instead (or another compatible registry).
 */
public final class Platform implements AutoCloseable {

    /** More nodes than this on one machine only slow it down; a real cluster is the place for them. */
    public static final int MAX_BROKERS = 9;

    private final Runnable kafka;
    private final Map<String, Object> kafkaClientProperties;
    private final KafkaCluster cluster;
    private final LocalSchemaRegistry registry;

    private Platform(
            Runnable kafka,
            Map<String, Object> kafkaClientProperties,
            KafkaCluster cluster,
            LocalSchemaRegistry registry) {
        this.kafka = kafka;
        this.kafkaClientProperties = kafkaClientProperties;
        this.cluster = cluster;
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
     * @param brokers 1 for the one in-process broker; more for a {@link KafkaCluster} of child
     *     processes under {@code dataDir/node-<id>} (plaintext, free ports)
     */
    public record Settings(Path dataDir, int kafkaPort, int registryPort, boolean secure, int brokers) {
        /** A plaintext platform. */
        public Settings(Path dataDir, int kafkaPort, int registryPort) {
            this(dataDir, kafkaPort, registryPort, false);
        }

        /** One broker. */
        public Settings(Path dataDir, int kafkaPort, int registryPort, boolean secure) {
            this(dataDir, kafkaPort, registryPort, secure, 1);
        }

        public Settings {
            if (registryPort < 0 || registryPort > 65535) {
                throw new IllegalArgumentException("Port " + registryPort
                        + " is out of range: pass --registry-port between 1 and 65535, or omit it to pick a free one");
            }
            if (brokers < 1 || brokers > MAX_BROKERS) {
                throw new IllegalArgumentException(
                        "--brokers must be between 1 and " + MAX_BROKERS + " on one machine, got " + brokers);
            }
            if (brokers > 1 && secure) {
                throw new IllegalArgumentException("--secure runs one broker; a secured cluster of --brokers " + brokers
                        + " is not supported yet");
            }
            if (brokers > 1 && kafkaPort != 0) {
                throw new IllegalArgumentException("--kafka-port sets the one broker's port; a cluster of --brokers "
                        + brokers + " picks free ports (omit --kafka-port)");
            }
        }

        /** {@code ~/.tokenpulse/platform}: the default data directory. */
        public static Path defaultDataDir() {
            return Path.of(System.getProperty("user.home"), ".tokenpulse", "platform");
        }
    }

    /** Starts broker then registry; returns once both answer. */
    public static Platform start(Settings settings) {
        if (settings.brokers() > 1) {
            return startCluster(settings);
        }
        KafkaSettings kafkaSettings = KafkaSettings.of(settings.dataDir()).withKafkaPort(settings.kafkaPort());
        if (settings.secure()) {
            kafkaSettings = kafkaSettings.withSaslUsers(secureUsers(kafkaSettings.dataDir()));
        } else if (CredentialFiles.exist(kafkaSettings.dataDir())) {
            throw new IllegalArgumentException("the data dir " + kafkaSettings.dataDir()
                    + " holds a secured broker: start it with tokenpulse platform --secure and pass the printed"
                    + " flags, or use another --data-dir");
        }
        EmbeddedKafka kafka = EmbeddedKafka.start(kafkaSettings);
        return withRegistry(kafka::close, kafka.clientProperties(), null, settings);
    }

    /** N nodes, each its own process; a data dir holds one node (the in-process broker's) or a cluster's. */
    private static Platform startCluster(Settings settings) {
        Path dataDir = settings.dataDir().toAbsolutePath().normalize();
        if (EmbeddedKafka.isFormatted(dataDir)) {
            throw new IllegalArgumentException("the data dir " + dataDir
                    + " holds a one-broker platform: pass a new --data-dir for --brokers " + settings.brokers());
        }
        if (CredentialFiles.exist(dataDir)) {
            throw new IllegalArgumentException("the data dir " + dataDir
                    + " holds a secured broker: pass a new --data-dir for --brokers " + settings.brokers());
        }
        KafkaCluster cluster = KafkaCluster.start(dataDir, settings.brokers(), KafkaSettings.DEFAULT_BIND_HOST);
        Map<String, Object> clientProperties =
                Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        return withRegistry(cluster::close, clientProperties, cluster, settings);
    }

    private static Platform withRegistry(
            Runnable kafka, Map<String, Object> clientProperties, KafkaCluster cluster, Settings settings) {
        try {
            LocalSchemaRegistry registry = LocalSchemaRegistry.start(
                    clientProperties,
                    LocalSchemaRegistry.DEFAULT_TOPIC,
                    new InetSocketAddress("127.0.0.1", settings.registryPort()));
            return new Platform(kafka, clientProperties, cluster, registry);
        } catch (BindException e) {
            closeQuietly(kafka);
            throw new IllegalStateException(
                    "port " + settings.registryPort()
                            + " on 127.0.0.1 is in use; pass another --registry-port or omit it to pick a free one",
                    e);
        } catch (IOException e) {
            closeQuietly(kafka);
            throw new UncheckedIOException("the local schema registry did not start: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            closeQuietly(kafka);
            throw e;
        }
    }

    private static void closeQuietly(Runnable stopKafka) {
        stopKafka.run();
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

    /** {@code 127.0.0.1:PORT} of the broker, or of every broker of a cluster, comma-separated. */
    public String bootstrapServers() {
        return (String) kafkaClientProperties.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG);
    }

    /** The cluster's nodes (their addresses, pids, data dirs); empty for the one in-process broker. */
    public List<KafkaChildProcess> nodes() {
        return cluster == null ? List.of() : cluster.nodes();
    }

    /**
     * Properties with which a client has full rights: {@code bootstrap.servers}, plus the admin's SASL
     * settings on a secured platform (secret: never print them).
     */
    public Properties adminClientProperties() {
        Properties properties = new Properties();
        properties.putAll(kafkaClientProperties);
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
            closeQuietly(kafka);
        }
    }
}
