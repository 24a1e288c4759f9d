package io.tokenpulse.platform.registry;

import com.sun.net.httpserver.HttpServer;
import io.tokenpulse.schemas.registry.Compatibility;
import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A local Schema Registry speaking Confluent's REST API subset (AVRO only): register, lookup, fetch
 * by id, subjects and versions, compatibility checks and levels, subject deletion. Any Confluent
 * client can point at {@link #url()}. Its state lives in a compacted Kafka topic (default
 * {@value #DEFAULT_TOPIC}), read to the end at start, so schema ids survive restarts.
 *
 * <p>One registry per topic at a time: there is no leader election between instances. Binds
 * 127.0.0.1 and a free port unless told otherwise. Thread-safe; {@link #close()} stops it.
 */
public final class LocalSchemaRegistry implements AutoCloseable {
    /** The topic that holds schemas, subjects and compatibility levels by default. */
    public static final String DEFAULT_TOPIC = "_tokenpulse_schemas";

    private static final Logger log = LoggerFactory.getLogger(LocalSchemaRegistry.class);
    private static final Duration KAFKA_TIMEOUT = Duration.ofSeconds(60);
    private static final int HTTP_THREADS = 4;

    /** The JDK server's only switch for TCP_NODELAY; read once, when its first server is created. */
    private static final String NODELAY_PROPERTY = "sun.net.httpserver.nodelay";

    static {
        // Without it the JDK server sends headers and body as two segments, and Nagle's algorithm with
        // the client's delayed ACK holds the body ~40 ms: measured 45 ms per GET, 0.5 ms with it.
        // Set only when the user has not chosen; it has no effect if another JDK server came first.
        if (System.getProperty(NODELAY_PROPERTY) == null) {
            System.setProperty(NODELAY_PROPERTY, "true");
        }
    }

    private final HttpServer server;
    private final ExecutorService executor;
    private final SchemaStore store;
    private final URI url;

    private LocalSchemaRegistry(HttpServer server, ExecutorService executor, SchemaStore store) {
        this.server = server;
        this.executor = executor;
        this.store = store;
        InetSocketAddress bound = server.getAddress();
        String host = bound.getAddress().getHostAddress();
        this.url = URI.create("http://" + (bound.getAddress() instanceof Inet6Address ? "[" + host + "]" : host) + ":"
                + bound.getPort());
    }

    /** Starts on 127.0.0.1, a free port, topic {@value #DEFAULT_TOPIC} of the given cluster. */
    public static LocalSchemaRegistry start(String bootstrapServers) throws IOException {
        return start(bootstrapServers, DEFAULT_TOPIC, new InetSocketAddress("127.0.0.1", 0));
    }

    /**
     * Starts on {@code address} (port 0: a free one), keeping state in {@code topic}, which is
     * created compacted with one partition if missing.
     *
     * @throws IOException if the address cannot be bound or the topic cannot be created or read
     */
    public static LocalSchemaRegistry start(String bootstrapServers, String topic, InetSocketAddress address)
            throws IOException {
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        return start(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers), topic, address);
    }

    /**
     * As {@link #start(String, String, InetSocketAddress)}, on a cluster reached with {@code
     * kafkaClientProperties} ({@code bootstrap.servers} and, on a secured cluster, SASL settings).
     */
    public static LocalSchemaRegistry start(
            Map<String, Object> kafkaClientProperties, String topic, InetSocketAddress address) throws IOException {
        if (topic == null || topic.isBlank()) {
            throw new IllegalArgumentException("schema topic name must not be empty");
        }
        return start(new KafkaSchemaStore(kafkaClientProperties, topic, KAFKA_TIMEOUT), address);
    }

    static LocalSchemaRegistry start(SchemaStore store, InetSocketAddress address) throws IOException {
        try {
            RegistryState state = RegistryState.load(store, Compatibility.BACKWARD);
            // The JDK's own HTTP server: a dozen JSON endpoints on localhost need no servlet
            // container or web framework, and it adds no dependency to the platform.
            HttpServer server = HttpServer.create(address, 0);
            ExecutorService executor = Executors.newFixedThreadPool(HTTP_THREADS, daemonThreads());
            server.setExecutor(executor);
            server.createContext("/", new RestApi(state));
            server.start();
            LocalSchemaRegistry registry = new LocalSchemaRegistry(server, executor, store);
            log.info("Schema registry listening on {}", registry.url());
            return registry;
        } catch (IOException | RuntimeException e) {
            store.close();
            throw e;
        }
    }

    /** The base URL clients use, e.g. {@code http://127.0.0.1:41234}. */
    public URI url() {
        return url;
    }

    public int port() {
        return url.getPort();
    }

    /** Stops serving at once and closes the store; registered schemas are already durable. */
    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
        store.close();
        log.info("Schema registry on {} stopped", url);
    }

    private static ThreadFactory daemonThreads() {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, "schema-registry-http-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
