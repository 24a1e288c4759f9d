package io.tokenpulse.platform.kafka;

import io.tokenpulse.platform.security.SaslUsers;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Apache Kafka KRaft broker (one node, combined broker and controller) running in this JVM.
 *
 * <p>{@link #start} formats the storage under {@code dataDir} the first time only, so a later start on
 * the same directory keeps the cluster id, topics and records, even with other ports. It returns once
 * the broker answers an AdminClient {@code describeCluster}. {@link #close} shuts down cleanly and
 * may be called from any thread, more than once.
 *
 * <p>One broker per data dir: a second one, in this JVM or another, is refused. Bad input (a port or
 * data dir in use, an unusable directory, a broker property Kafka rejects) fails with a one-line
 * {@link IllegalArgumentException}; a broker that does not come up fails with
 * {@link IllegalStateException}. Kafka halts the whole JVM on a fatal metadata fault (its
 * {@code ProcessTerminatingFaultHandler}): where that must not take the caller down, use
 * {@link KafkaChildProcess}.
 */
public final class EmbeddedKafka implements AutoCloseable {

    /** Kafka's own name for a combined node's log directory (config/server.properties). */
    static final String STORAGE_DIR = "kraft-combined-logs";
    /**
     * Not a Kafka config: the cluster id to format a new node's storage with, shared by the nodes of a
     * {@link KafkaCluster} (a lone broker gets a random one). Kafka ignores it on start.
     */
    static final String CLUSTER_ID_PROPERTY = "tokenpulse.cluster.id";

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final Logger log = LoggerFactory.getLogger(EmbeddedKafka.class);

    private final DataDirLock lock;
    private final KafkaRaftServer server;
    private final Map<String, Object> clientProperties;
    private final String clusterId;
    private final AtomicBoolean closed = new AtomicBoolean();

    private EmbeddedKafka(
            DataDirLock lock, KafkaRaftServer server, Map<String, Object> clientProperties, String clusterId) {
        this.lock = lock;
        this.server = server;
        this.clientProperties = clientProperties;
        this.clusterId = clusterId;
    }

    /** Starts the broker and returns when it is ready for clients. */
    public static EmbeddedKafka start(KafkaSettings settings) {
        long startNs = System.nanoTime();
        Path storageDir = settings.dataDir().resolve(STORAGE_DIR);
        int kafkaPort = Ports.claim(settings.bindHost(), settings.kafkaPort(), "--kafka-port", -1);
        int controllerPort =
                Ports.claim(BrokerConfig.CONTROLLER_HOST, settings.controllerPort(), "--controller-port", kafkaPort);
        KafkaConfig config;
        try {
            config = KafkaConfig.fromProps(BrokerConfig.build(settings, storageDir, kafkaPort, controllerPort), false);
        } catch (ConfigException e) {
            throw new IllegalArgumentException("Kafka rejected a broker property: " + e.getMessage(), e);
        }
        DataDirLock lock = DataDirLock.acquire(settings.dataDir());
        KafkaRaftServer server = null;
        String bootstrapServers = settings.bindHost() + ":" + kafkaPort;
        Map<String, Object> clientProperties = new HashMap<>();
        clientProperties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        clientProperties.put(AdminClientConfig.METRIC_REPORTER_CLASSES_CONFIG, ""); // no MBeans: start-up CPU
        if (settings.saslUsers() != null) {
            clientProperties.putAll(settings.saslUsers().clientProperties(SaslUsers.ADMIN));
        }
        try {
            formatOnce(
                    storageDir,
                    config.nodeId(),
                    settings.brokerProperties()
                            .getOrDefault(CLUSTER_ID_PROPERTY, Uuid.randomUuid().toString()),
                    settings.saslUsers());
            server = new KafkaRaftServer(config, Time.SYSTEM);
            server.startup();
            String clusterId = awaitReady(clientProperties);
            log.info(
                    "Kafka broker ready at {} (cluster {}, data {}) in {} ms",
                    bootstrapServers,
                    clusterId,
                    settings.dataDir(),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs));
            return new EmbeddedKafka(lock, server, Map.copyOf(clientProperties), clusterId);
        } catch (RuntimeException e) {
            if (server != null) {
                shutdown(server);
            }
            lock.close();
            if (e instanceof IllegalArgumentException) {
                throw e;
            }
            throw new IllegalStateException(
                    "Kafka broker in " + settings.dataDir() + " failed to start: " + e.getMessage(), e);
        }
    }

    /** {@code host:port} for the clients' {@code bootstrap.servers}. */
    public String bootstrapServers() {
        return (String) clientProperties.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG);
    }

    /**
     * What a client needs to connect with full rights: {@code bootstrap.servers}, and on a secured broker
     * the admin's SASL settings (secret: never print them).
     */
    public Map<String, Object> clientProperties() {
        return clientProperties;
    }

    /** Whether {@code dataDir} already holds a formatted broker (formatting happens once). */
    public static boolean isFormatted(Path dataDir) {
        return Files.exists(dataDir.resolve(STORAGE_DIR).resolve("meta.properties"));
    }

    /** The id written into the data dir when it was first formatted. */
    public String clusterId() {
        return clusterId;
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            shutdown(server);
            lock.close();
            log.info("Kafka broker at {} stopped", bootstrapServers());
        }
    }

    private static void shutdown(KafkaRaftServer server) {
        server.shutdown();
        server.awaitShutdown();
    }

    /**
     * Formats only a directory that has no meta.properties yet, so restarts keep their cluster id. A
     * secured broker's SCRAM credentials go into the bootstrap metadata here: KRaft reads them before any
     * client can authenticate, which no Admin call could do.
     */
    private static void formatOnce(Path storageDir, int nodeId, String clusterId, SaslUsers users) {
        if (Files.exists(storageDir.resolve("meta.properties"))) {
            return;
        }
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        try (PrintStream formatterOut = new PrintStream(output, true, StandardCharsets.UTF_8)) {
            Files.createDirectories(storageDir);
            Formatter formatter = new Formatter();
            if (users != null) {
                formatter.setScramArguments(users.passwords().entrySet().stream()
                        .map(user ->
                                SaslUsers.MECHANISM + "=[name=" + user.getKey() + ",password=" + user.getValue() + "]")
                        .toList());
            }
            formatter
                    .setPrintStream(formatterOut)
                    .setNodeId(nodeId)
                    .setClusterId(clusterId)
                    .setControllerListenerName(BrokerConfig.CONTROLLER_LISTENER)
                    .setHasDynamicQuorum(false)
                    .setMetadataLogDirectory(storageDir.toString())
                    .addDirectory(storageDir.toString())
                    .run();
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "Cannot create Kafka storage dir " + storageDir + " (" + e.getMessage()
                            + "): pass a writable --data-dir",
                    e);
        } catch (Exception e) {
            throw new IllegalStateException("Cannot format Kafka storage in " + storageDir + ": " + e.getMessage(), e);
        }
        log.debug(
                "Formatted {}: {}",
                storageDir,
                output.toString(StandardCharsets.UTF_8).strip());
    }

    /** Polls describeCluster until the broker answers, and returns the cluster id it reports. */
    private static String awaitReady(Map<String, Object> clientProperties) {
        long deadlineNs = System.nanoTime() + READY_TIMEOUT.toNanos();
        Map<String, Object> adminConfig = new HashMap<>(clientProperties);
        adminConfig.put(AdminClientConfig.CLIENT_ID_CONFIG, "tokenpulse-embedded-kafka-ready");
        Throwable lastFailure = null;
        try (Admin admin = Admin.create(adminConfig)) {
            while (System.nanoTime() < deadlineNs) {
                try {
                    var cluster = admin.describeCluster(new DescribeClusterOptions().timeoutMs(5_000));
                    if (!cluster.nodes().get().isEmpty()) {
                        return cluster.clusterId().get();
                    }
                } catch (ExecutionException e) {
                    lastFailure = e.getCause();
                }
                Thread.sleep(50);
            }
            throw new IllegalStateException(
                    "no answer to describeCluster within " + READY_TIMEOUT.toSeconds() + " s"
                            + (lastFailure == null ? "" : ": " + lastFailure.getMessage()),
                    lastFailure);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the broker", e);
        }
    }
}
