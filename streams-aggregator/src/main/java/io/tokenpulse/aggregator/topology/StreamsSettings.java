package io.tokenpulse.aggregator.topology;

import io.soabase.recordbuilder.core.RecordBuilder;
import io.tokenpulse.schemas.Topics;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.streams.StreamsConfig;

/**
 * What the aggregator needs to know beyond topic names: where Kafka is, where state lives, and the
 * window shape. {@link #toProperties(Properties)} turns it into Kafka Streams {@code Properties};
 * {@link AggregatorTopology#build} reads the window and partition values. Immutable.
 *
 * @param applicationId      Kafka Streams application id: consumer group, prefix of internal topics
 * @param bootstrapServers   Kafka bootstrap servers, {@code host:port,...}
 * @param stateDir           directory of the local RocksDB stores
 * @param commitIntervalMs   how often results are committed, hence how fresh live windows are
 * @param replicationFactor  replication of internal topics (changelogs, repartitions)
 * @param windowSize         length of the live tumbling windows
 * @param windowGrace        how long after its end a window still accepts late requests
 * @param runPartitions      partitions of the two internal topics keyed by run id; one run's
 *                           requests meet its run records on one partition, so both must match
 * @param streamThreads      stream threads of this instance; a topic partition is one thread's work,
 *                           so threads beyond the partitions of all instances stay idle
 * @param joinStateTtl       stream time (record timestamps) after a request's newest record before
 *                           join state that cannot complete is dead-lettered; must exceed the longest
 *                           silence within one response (the load generator's 10 min read-idle limit)
 */
@RecordBuilder
public record StreamsSettings(
        String applicationId,
        String bootstrapServers,
        Path stateDir,
        long commitIntervalMs,
        int replicationFactor,
        Duration windowSize,
        Duration windowGrace,
        int runPartitions,
        int streamThreads,
        Duration joinStateTtl)
        implements StreamsSettingsBuilder.With {

    public static final String DEFAULT_APPLICATION_ID = "tokenpulse-aggregator";
    /**
     * Each commit is a transaction: the broker's coordinator, a marker on every partition written, the
     * producer's requests. At 1 000 events/s 100 ms cost ~40 µs of CPU per event more than 250 ms
     * (docs/performance.md, "Commit interval"); the live view is ~150 ms later at worst.
     */
    public static final long DEFAULT_COMMIT_INTERVAL_MS = 250;

    public static final Duration DEFAULT_WINDOW_SIZE = Duration.ofSeconds(10);
    public static final Duration DEFAULT_WINDOW_GRACE = Duration.ofSeconds(30);
    /** Three times the load generator's read-idle limit: no live stream is silent that long. */
    public static final Duration DEFAULT_JOIN_STATE_TTL = Duration.ofMinutes(30);
    /** The stream thread's longest wait for records (Kafka Streams' poll.ms). */
    static final long POLL_MS = 500;

    public StreamsSettings {
        Objects.requireNonNull(applicationId, "applicationId");
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        Objects.requireNonNull(stateDir, "stateDir");
        Objects.requireNonNull(windowSize, "windowSize");
        Objects.requireNonNull(windowGrace, "windowGrace");
        Objects.requireNonNull(joinStateTtl, "joinStateTtl");
        if (applicationId.isBlank()) {
            throw new IllegalArgumentException(
                    "application id is blank; give a name such as " + DEFAULT_APPLICATION_ID);
        }
        if (commitIntervalMs <= 0) {
            throw new IllegalArgumentException("commit interval must be > 0 ms, got " + commitIntervalMs);
        }
        if (replicationFactor < 1) {
            throw new IllegalArgumentException("replication factor must be >= 1, got " + replicationFactor);
        }
        if (windowSize.isNegative() || windowSize.isZero() || windowSize.toMillis() == 0) {
            throw new IllegalArgumentException("window size must be at least 1 ms, got " + windowSize);
        }
        if (windowGrace.isNegative()) {
            throw new IllegalArgumentException("window grace must be >= 0, got " + windowGrace);
        }
        if (runPartitions < 1) {
            throw new IllegalArgumentException("run partitions must be >= 1, got " + runPartitions);
        }
        if (streamThreads < 1) {
            throw new IllegalArgumentException("stream threads must be >= 1, got " + streamThreads);
        }
        if (joinStateTtl.toMillis() < 1) {
            throw new IllegalArgumentException("join state TTL must be at least 1 ms, got " + joinStateTtl);
        }
    }

    /**
     * Defaults for one broker (replication 1) and one stream thread, 10 s windows with 30 s grace, state under
     * {@code ~/.tokenpulse/streams} (not the OS temp dir, which may be cleaned during a 24-hour run).
     */
    public static StreamsSettings defaults(String bootstrapServers) {
        return new StreamsSettings(
                DEFAULT_APPLICATION_ID,
                bootstrapServers,
                Path.of(System.getProperty("user.home"), ".tokenpulse", "streams"),
                DEFAULT_COMMIT_INTERVAL_MS,
                1,
                DEFAULT_WINDOW_SIZE,
                DEFAULT_WINDOW_GRACE,
                1,
                1,
                DEFAULT_JOIN_STATE_TTL);
    }

    /**
     * {@code <application id>-<host>-<hash of the absolute state dir>}: stable across restarts of
     * one instance, distinct between instances (two containers may share a state dir path, not a
     * host name).
     */
    static String staticMemberId(String applicationId, Path stateDir) {
        return staticMemberId(applicationId, hostName(), stateDir);
    }

    static String staticMemberId(String applicationId, String hostName, Path stateDir) {
        // Kafka accepts only [a-zA-Z0-9._-] in a group.instance.id; a host name may hold more.
        String host = hostName.replaceAll("[^a-zA-Z0-9._-]", "_");
        byte[] digest;
        try {
            digest = MessageDigest.getInstance("SHA-256")
                    .digest(stateDir.toAbsolutePath().normalize().toString().getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
        return applicationId + "-" + host + "-" + HexFormat.of().formatHex(digest, 0, 6);
    }

    private static String hostName() {
        String env = System.getenv("HOSTNAME");
        if (env != null && !env.isBlank()) {
            return env;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }

    /**
     * Kafka Streams properties: {@code overrides} first (a user's config file wins), then our
     * defaults with {@code putIfAbsent}.
     */
    public Properties toProperties(Properties overrides) {
        Properties props = new Properties();
        props.putAll(overrides);
        props.putIfAbsent(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.putIfAbsent(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        // Each request's metrics and each run's summary must be emitted exactly once, even when an
        // instance dies between writing the output and committing the input offsets.
        props.putIfAbsent(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.putIfAbsent(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        // Output becomes visible at commit under exactly-once: this is the freshness of live windows.
        props.putIfAbsent(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, Long.toString(commitIntervalMs));
        // 1 suits the embedded single broker; a real cluster passes 3.
        props.putIfAbsent(StreamsConfig.REPLICATION_FACTOR_CONFIG, Integer.toString(replicationFactor));
        // A run's records may be written before the aggregator starts: read topics from their start.
        props.putIfAbsent(StreamsConfig.consumerPrefix("auto.offset.reset"), "earliest");
        // Request records carry the generated text (up to Topics.MAX_RECORD_BYTES): the changelogs and
        // repartition topics that hold them, and the producer writing them, need more than 1 MiB.
        props.putIfAbsent(
                StreamsConfig.topicPrefix(TopicConfig.MAX_MESSAGE_BYTES_CONFIG),
                Integer.toString(Topics.MAX_RECORD_BYTES));
        props.putIfAbsent(
                StreamsConfig.producerPrefix(ProducerConfig.MAX_REQUEST_SIZE_CONFIG),
                Integer.toString(Topics.MAX_RECORD_BYTES));
        // One bounded native-memory budget for all state stores, so a long run's RSS levels off.
        props.putIfAbsent(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, BoundedRocksDbMemory.class.getName());
        // A fetch comes back once 64 KiB wait or after 0.5 s. With Kafka's minimum of 1 byte every produce
        // request of the load generator (one per 50 ms linger) completed a fetch and woke the broker's
        // handlers and the stream thread: at 1 000 events/s the default pipeline cost 14-16 % more CPU
        // per event. Records reach the windows and a run's summary up to 0.5 s later; an idle fetch
        // comes back every 0.5 s (it was 3 s, for idle CPU: +0.003 cores measured; docs/performance.md,
        // "Fetch cadence").
        props.putIfAbsent(StreamsConfig.mainConsumerPrefix(ConsumerConfig.FETCH_MIN_BYTES_CONFIG), "65536");
        props.putIfAbsent(StreamsConfig.mainConsumerPrefix(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG), "500");
        // The stream thread's loop ran every 0.1 s with nothing to do, a fifth of an idle run's CPU (issue
        // 30). Records end a poll at once, so under load nothing changes. Without records, what waits
        // for the next loop waits up to 0.5 s: a window's flush and its commit, the commit of a run's
        // last requests into the by-run topic, a close. So a run's summary comes up to ~0.4 s later
        // (its own commit does not wait: RunWindows asks for it); docs/performance.md, "Idle".
        props.putIfAbsent(StreamsConfig.POLL_MS_CONFIG, Long.toString(POLL_MS));
        // One by default: bench's in-process aggregator shares the machine with the load generator;
        // `aggregate --stream-threads N` on a host of its own (docs/cluster.md).
        props.putIfAbsent(StreamsConfig.NUM_STREAM_THREADS_CONFIG, Integer.toString(streamThreads));
        // Static membership: an instance that comes back with the same identity (same host, same
        // state dir: one instance holds a state dir at a time) takes over its old member at once. A
        // dynamic member killed without a close (kill -9) held the next start in a rebalance until
        // its 45 s session expired; a clean close leaves the group (Aggregator.close).
        props.putIfAbsent(
                StreamsConfig.mainConsumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG),
                staticMemberId(
                        props.getProperty(StreamsConfig.APPLICATION_ID_CONFIG),
                        Path.of(props.getProperty(StreamsConfig.STATE_DIR_CONFIG))));
        return props;
    }
}
