package io.tokenpulse.aggregator.topology;

import io.tokenpulse.schemas.Topics;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The aggregator as a running service: {@link #start} builds {@link AggregatorTopology} and starts
 * Kafka Streams; {@link #close} stops it and waits. Several instances with the same application
 * id share the work through Kafka's partitions. The input topics must exist before the start.
 * Thread-safe.
 */
public final class Aggregator implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Aggregator.class);
    /** Its stack traces: hidden unless --verbose (simplelogger.properties, tokenpulse.stacktraces). */
    private static final Logger TRACES =
            LoggerFactory.getLogger("tokenpulse.stacktraces." + Aggregator.class.getName());

    /** How long {@link #close()} waits for the last commit and for leaving the group. */
    public static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

    private final KafkaStreams streams;
    private final CountDownLatch running = new CountDownLatch(1);

    private Aggregator(KafkaStreams streams) {
        this.streams = streams;
    }

    /**
     * Starts the topology; {@code overrides} are Kafka Streams properties that win over the
     * defaults of {@link StreamsSettings#toProperties}.
     */
    public static Aggregator start(Topics topics, StreamsSettings settings, Properties overrides) {
        return start(topics, settings, overrides, TopologyListener.NONE);
    }

    /** As {@link #start(Topics, StreamsSettings, Properties)}, with live metrics fed to {@code listener}. */
    public static Aggregator start(
            Topics topics, StreamsSettings settings, Properties overrides, TopologyListener listener) {
        RocksDbLibrary.loadFrom(RocksDbLibrary.defaultCacheDir());
        KafkaStreams streams = new KafkaStreams(
                AggregatorTopology.build(topics, settings, listener), settings.toProperties(overrides));
        Aggregator aggregator = new Aggregator(streams);
        streams.setStateListener((now, before) -> aggregator.onStateChange(now, before));
        // A record that breaks the topology would break it again after a thread restart: stop
        // this instance and say so, rather than spin; unreadable records never get here.
        streams.setUncaughtExceptionHandler(e -> {
            LOG.error("aggregator stopped by an unexpected error: {}", e.toString());
            TRACES.warn("aggregator stopped by", e);
            return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        streams.start();
        return aggregator;
    }

    private void onStateChange(KafkaStreams.State now, KafkaStreams.State before) {
        LOG.info("aggregator {} -> {}", before, now);
        if (now == KafkaStreams.State.RUNNING) {
            running.countDown();
        }
    }

    /** Waits until the instance first reached RUNNING (partitions assigned, stores restored). */
    public boolean awaitRunning(Duration timeout) throws InterruptedException {
        return running.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    public KafkaStreams.State state() {
        return streams.state();
    }

    /**
     * The stream threads this instance runs: what {@code num.stream.threads} became, from {@link
     * StreamsSettings#streamThreads()} or a user's Kafka property.
     */
    public int streamThreads() {
        return streams.metadataForLocalThreads().size();
    }

    /** The Kafka Streams client, for metrics binders (e.g. Micrometer's {@code KafkaStreamsMetrics}). */
    public KafkaStreams kafkaStreams() {
        return streams;
    }

    /** Stops and leaves the group (a static member stays in it otherwise), so its partitions move at once. */
    @Override
    public void close() {
        if (!streams.close(
                new KafkaStreams.CloseOptions().timeout(CLOSE_TIMEOUT).leaveGroup(true))) {
            LOG.warn("aggregator did not stop within {}", CLOSE_TIMEOUT);
        }
    }
}
