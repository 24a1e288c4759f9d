package io.tokenpulse.aggregator.results;

import io.tokenpulse.schemas.TopicSpec;
import io.tokenpulse.schemas.Topics;
import io.tokenpulse.schemas.avro.RequestMetrics;
import io.tokenpulse.schemas.avro.RunSummary;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Reads one run's results back from the topology's output topics: its run-summary record and, when
 * asked, its per-request metrics (for {@code --save-detailed} and {@code replay}). Reads only
 * committed records, so what it returns is what the exactly-once topology produced.
 *
 * <p>Not thread-safe: one caller polls. Bad records (another schema on the topic) are skipped and
 * counted rather than stopping the read.
 */
public final class RunResults implements AutoCloseable {

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final TopicSpec<RunSummary> summaries;
    private final TopicSpec<RequestMetrics> requestMetrics;
    private final String runId;
    private final boolean keepRequests;
    private final Map<Integer, RequestMetrics> requests = new TreeMap<>();
    private RunSummary summary;
    private long unreadable;

    private RunResults(KafkaConsumer<byte[], byte[]> consumer, Topics topics, String runId, boolean keepRequests) {
        this.consumer = consumer;
        this.summaries = topics.runSummaries();
        this.requestMetrics = topics.requestMetrics();
        this.runId = runId;
        this.keepRequests = keepRequests;
    }

    /**
     * Starts reading at {@code since} (records older than that cannot belong to the run), so a data
     * directory holding many earlier runs is not scanned from the beginning.
     *
     * @param clientProperties Kafka client properties incl. bootstrap.servers and security settings
     */
    public static RunResults open(Topics topics, Properties clientProperties, String runId, Instant since,
                                  boolean keepRequests) {
        Properties props = new Properties();
        props.putAll(clientProperties);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        try {
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : List.of(topics.runSummaries().name(), topics.requestMetrics().name())) {
                for (PartitionInfo p : consumer.partitionsFor(topic, Duration.ofSeconds(30))) {
                    partitions.add(new TopicPartition(p.topic(), p.partition()));
                }
            }
            consumer.assign(partitions);
            Map<TopicPartition, Long> times = new HashMap<>();
            partitions.forEach(tp -> times.put(tp, since.toEpochMilli()));
            Map<TopicPartition, OffsetAndTimestamp> offsets = consumer.offsetsForTimes(times);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            for (TopicPartition tp : partitions) {
                OffsetAndTimestamp at = offsets.get(tp);
                consumer.seek(tp, at == null ? ends.get(tp) : at.offset());
            }
            return new RunResults(consumer, topics, runId, keepRequests);
        } catch (RuntimeException e) {
            consumer.close();
            throw e;
        }
    }

    /**
     * Polls until the run's summary arrived or {@code timeout} passed.
     *
     * @return the summary, or empty when it did not arrive in time
     */
    public Optional<RunSummary> awaitSummary(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (summary == null && System.nanoTime() < deadline) {
            long leftMs = Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(Math.min(200, leftMs)))) {
                accept(record);
            }
        }
        // Request metrics are committed in the same transaction as the summary or before it; one more
        // poll round picks up those fetched after the summary's partition.
        if (summary != null && keepRequests) {
            drain();
        }
        return Optional.ofNullable(summary);
    }

    /** The run's per-request metrics seen so far, in request-index order (empty unless kept). */
    public List<RequestMetrics> requests() {
        return List.copyOf(requests.values());
    }

    /** Records on the two topics that could not be decoded (skipped). */
    public long unreadableRecords() {
        return unreadable;
    }

    private void drain() {
        Map<TopicPartition, Long> ends = consumer.endOffsets(consumer.assignment());
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadline && ends.entrySet().stream()
                .anyMatch(e -> consumer.position(e.getKey()) < e.getValue())) {
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                accept(record);
            }
        }
    }

    private void accept(ConsumerRecord<byte[], byte[]> record) {
        if (record.key() == null || record.value() == null) {
            return;
        }
        String key = new String(record.key(), java.nio.charset.StandardCharsets.UTF_8);
        if (record.topic().equals(summaries.name())) {
            if (key.equals(runId)) {
                decode(summaries.valueSerde().deserializer(), record).ifPresent(s -> summary = s);
            }
        } else if (keepRequests && key.startsWith(runId + "/")) {
            decode(requestMetrics.valueSerde().deserializer(), record)
                    .filter(m -> m.getRunId().equals(runId))
                    .ifPresent(m -> requests.put(m.getRequestIndex(), m));
        }
    }

    private <T> Optional<T> decode(Deserializer<T> deserializer, ConsumerRecord<byte[], byte[]> record) {
        try {
            return Optional.ofNullable(deserializer.deserialize(record.topic(), record.value()));
        } catch (RuntimeException e) {
            unreadable++;
            return Optional.empty();
        }
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(5));
    }
}
