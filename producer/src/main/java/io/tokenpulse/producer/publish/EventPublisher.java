package io.tokenpulse.producer.publish;

import io.tokenpulse.schemas.TopicSpec;
import io.tokenpulse.schemas.Topics;
import io.tokenpulse.schemas.avro.Chunk;
import io.tokenpulse.schemas.avro.RequestEvent;
import io.tokenpulse.schemas.avro.RunEvent;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * Hands the run's records to Kafka without ever waiting: {@code publish*} serializes the record and
 * appends it to the producer's bounded buffer (max.block.ms=0), or counts it as failed when that is
 * impossible. Every record ends up counted exactly once as delivered or failed (by
 * {@link DeliveryFailure}); {@link #flush} and {@link #close} report the counts, so a run can say how
 * many records it could not deliver.
 *
 * <p>A finished request's generated text longer than {@link Topics#MAX_GENERATED_TEXT_BYTES} is cut
 * to it with a marker ({@link #textsTruncated} counts them, a warning says so), so that its record
 * stays within {@link Topics#MAX_RECORD_BYTES}.
 *
 * <p>Topics and keys follow {@link Topics}: runs keyed by run id; requests and chunks keyed by
 * {@code <run id>/<request index>}, so one request's records share a partition.
 *
 * <p>Threading: {@code publish*} may be called from any thread, including the HTTP I/O threads.
 */
public final class EventPublisher implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EventPublisher.class);
    private static final Duration DEFAULT_CLOSE_TIMEOUT = Duration.ofSeconds(30);

    private final Producer<byte[], byte[]> producer;
    private final Target<RunEvent> runs;
    private final Target<RequestEvent> requests;
    private final Target<Chunk> chunks;
    private final LongAdder published = new LongAdder();
    private final LongAdder delivered = new LongAdder();
    private final LongAdder truncated = new LongAdder();
    private final AtomicBoolean truncationLogged = new AtomicBoolean();
    private final TextCap textCap = new TextCap(Topics.MAX_GENERATED_TEXT_BYTES);
    private final Map<DeliveryFailure, LongAdder> failed = new EnumMap<>(DeliveryFailure.class);
    private final Set<DeliveryFailure> logged = ConcurrentHashMap.newKeySet();
    private final Callback onAck = this::acknowledged;
    private volatile boolean closing;

    EventPublisher(Producer<byte[], byte[]> producer, TopicSpec<RunEvent> runs, TopicSpec<RequestEvent> requests,
                   TopicSpec<Chunk> chunks) {
        this.producer = producer;
        this.runs = new Target<>(runs);
        this.requests = new Target<>(requests);
        this.chunks = new Target<>(chunks);
        for (DeliveryFailure reason : DeliveryFailure.values()) {
            failed.put(reason, new LongAdder());
        }
    }

    /**
     * A publisher to the run, request and chunk topics of {@code topics}. Before returning (before
     * any timing starts) it resolves the value schemas' ids, so no registry round trip happens on an
     * I/O thread, and waits up to the settings' startup timeout until the topics' partitions are
     * known: with max.block.ms=0 a record for a topic without metadata would fail at once.
     *
     * @throws IllegalStateException when Kafka does not answer in time
     * @throws org.apache.kafka.common.errors.SerializationException when a schema cannot be resolved
     */
    public static EventPublisher open(PublisherSettings settings, Topics topics) {
        topics.resolveSchemaIds();
        KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(settings.producerProperties(),
                new ByteArraySerializer(), new ByteArraySerializer());
        try {
            for (TopicSpec<?> topic : List.of(topics.runs(), topics.requests(), topics.chunks())) {
                awaitMetadata(producer, topic.name(), settings);
            }
        } catch (RuntimeException e) {
            producer.close(Duration.ZERO);
            throw e;
        }
        return new EventPublisher(producer, topics.runs(), topics.requests(), topics.chunks());
    }

    private static void awaitMetadata(KafkaProducer<byte[], byte[]> producer, String topic, PublisherSettings settings) {
        long deadlineNs = System.nanoTime() + settings.startupTimeout().toNanos();
        while (true) {
            try {
                producer.partitionsFor(topic); // with max.block.ms=0 each miss only asks for metadata
                return;
            } catch (TimeoutException e) {
                if (System.nanoTime() > deadlineNs) {
                    throw new IllegalStateException("Kafka at " + settings.bootstrapServers() + " gave no metadata for topic "
                            + topic + " within " + settings.startupTimeout() + ": check the bootstrap servers and that the topic exists");
                }
                try {
                    Thread.sleep(20);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for Kafka", interrupted);
                }
            }
        }
    }

    public void publishRun(RunEvent event) {
        publish(runs, event.getRunId(), event);
    }

    public void publishRequest(RequestEvent event) {
        RequestEvent capped = textCap.apply(event);
        if (capped != event) {
            truncated.increment();
            if (truncationLogged.compareAndSet(false, true)) {
                LOG.warn("the generated text of request {}/{} exceeds {} UTF-8 bytes: it is kept truncated, with a marker;"
                        + " further ones are counted", event.getRunId(), event.getRequestIndex(),
                        Topics.MAX_GENERATED_TEXT_BYTES);
            }
        }
        publish(requests, Topics.requestKey(capped.getRunId(), capped.getRequestIndex()), capped);
    }

    /** Finished requests whose generated text was cut to {@link Topics#MAX_GENERATED_TEXT_BYTES}. */
    public long textsTruncated() {
        return truncated.sum();
    }

    public void publishChunk(Chunk chunk) {
        publish(chunks, Topics.requestKey(chunk.getRunId(), chunk.getRequestIndex()), chunk);
    }

    /** The counts so far; {@code pending} records may still arrive. */
    public PublishCounts counts() {
        Map<DeliveryFailure, Long> failures = new EnumMap<>(DeliveryFailure.class);
        failed.forEach((reason, count) -> failures.put(reason, count.sum()));
        // read delivered and failed before published, so a record in flight never shows as negative pending
        long acknowledged = delivered.sum();
        long failedTotal = failures.values().stream().mapToLong(Long::longValue).sum();
        long publishedNow = published.sum();
        return new PublishCounts(publishedNow, acknowledged, failures, Math.max(0, publishedNow - acknowledged - failedTotal));
    }

    /**
     * Waits up to {@code timeout} until every record published so far is delivered or failed, and
     * returns the counts (records still pending after the timeout show as pending).
     */
    public PublishCounts flush(Duration timeout) {
        long deadlineNs = System.nanoTime() + timeout.toNanos();
        PublishCounts counts = counts();
        while (counts.pending() > 0 && System.nanoTime() < deadlineNs) {
            try {
                Thread.sleep(5); // KafkaProducer.flush() has no timeout, hence polling our own counts
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            counts = counts();
        }
        return counts;
    }

    /**
     * Flushes for up to {@code timeout}, then closes the producer; records still pending are
     * dropped by Kafka and counted as {@link DeliveryFailure#CLOSED}. Returns the final counts.
     */
    public PublishCounts close(Duration timeout) {
        flush(timeout);
        closing = true;
        producer.close(Duration.ZERO);
        PublishCounts counts = counts();
        LOG.info("published {} records: {} delivered, {} not delivered {}", counts.published(), counts.delivered(),
                counts.notDelivered(), counts.failed());
        if (truncated.sum() > 0) {
            LOG.warn("{} generated texts were truncated to {} UTF-8 bytes (marked at their end)", truncated.sum(),
                    Topics.MAX_GENERATED_TEXT_BYTES);
        }
        return counts;
    }

    @Override
    public void close() {
        close(DEFAULT_CLOSE_TIMEOUT);
    }

    private <V> void publish(Target<V> target, String key, V value) {
        published.increment();
        if (closing) {
            failed(DeliveryFailure.CLOSED, null);
            return;
        }
        try {
            byte[] keyBytes = target.keySerializer.serialize(target.topic, key);
            byte[] valueBytes = target.valueSerializer.serialize(target.topic, value);
            // Errors Kafka detects at once (buffer full, no metadata) reach the callback before send returns.
            producer.send(new ProducerRecord<>(target.topic, keyBytes, valueBytes), onAck);
        } catch (RuntimeException e) {
            failed(DeliveryFailure.of(e, closing), e);
        }
    }

    private void acknowledged(RecordMetadata metadata, Exception error) {
        if (error == null) {
            delivered.increment();
        } else {
            failed(DeliveryFailure.of(error, closing), error);
        }
    }

    private void failed(DeliveryFailure reason, Exception error) {
        failed.get(reason).increment();
        if (error != null && logged.add(reason)) {
            LOG.warn("a record could not be delivered to Kafka ({}), counting further ones silently: {}", reason, error.toString());
        }
    }

    /** A topic with its serializers, looked up once. */
    private static final class Target<V> {
        final String topic;
        final Serializer<String> keySerializer;
        final Serializer<V> valueSerializer;

        Target(TopicSpec<V> spec) {
            this.topic = spec.name();
            this.keySerializer = spec.keySerde().serializer();
            this.valueSerializer = spec.valueSerde().serializer();
        }
    }
}
