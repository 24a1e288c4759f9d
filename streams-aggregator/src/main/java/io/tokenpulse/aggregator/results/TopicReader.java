package io.tokenpulse.aggregator.results;

import io.tokenpulse.schemas.TopicSpec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.ObjLongConsumer;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads topics without a consumer group: assign their partitions, seek (to the beginning or to a
 * time), drain up to the end offsets as of now, and hand each record to what was registered for its
 * topic. Reads only committed records, so what it returns is what the exactly-once topology produced.
 * Values are decoded only for keys a reader wants; a value that cannot be decoded (another schema on
 * the topic) is skipped and counted rather than stopping the read.
 *
 * <p>Not thread-safe: one caller polls.
 */
final class TopicReader implements AutoCloseable {
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Map<String, List<Consumer<ConsumerRecord<byte[], byte[]>>>> handlers = new HashMap<>();
    private long unreadable;

    /** @param clientProperties Kafka client properties incl. bootstrap.servers and security settings */
    TopicReader(Properties clientProperties) {
        Properties props = new Properties();
        props.putAll(clientProperties);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** Hands the decoded value of every record of {@code topic} whose key is wanted to {@code sink}. */
    <V> void decode(TopicSpec<V> topic, Predicate<String> keyWanted, Consumer<V> sink) {
        on(topic.name(), record -> {
            if (keyWanted.test(key(record))) {
                try {
                    V value = topic.valueSerde().deserializer().deserialize(record.topic(), record.value());
                    if (value != null) {
                        sink.accept(value);
                    }
                } catch (RuntimeException e) {
                    unreadable++;
                }
            }
        });
    }

    /** Shows the key and timestamp (ms) of every record of {@code topic} to {@code keys}, decoding nothing. */
    void observeKeys(String topic, ObjLongConsumer<String> keys) {
        on(topic, record -> keys.accept(key(record), record.timestamp()));
    }

    private void on(String topic, Consumer<ConsumerRecord<byte[], byte[]>> handler) {
        handlers.computeIfAbsent(topic, t -> new ArrayList<>()).add(handler);
    }

    private static String key(ConsumerRecord<byte[], byte[]> record) {
        return new String(record.key(), StandardCharsets.UTF_8);
    }

    /** Every partition of {@code topics}. */
    List<TopicPartition> partitions(List<String> topics) {
        List<TopicPartition> partitions = new ArrayList<>();
        for (String topic : topics) {
            for (PartitionInfo p : consumer.partitionsFor(topic, Duration.ofSeconds(30))) {
                partitions.add(new TopicPartition(p.topic(), p.partition()));
            }
        }
        return partitions;
    }

    /** Reads {@code partitions} from now on, and nothing else. */
    void assign(Collection<TopicPartition> partitions) {
        consumer.assign(partitions);
    }

    void seekToBeginning(Collection<TopicPartition> partitions) {
        consumer.seekToBeginning(partitions);
    }

    /** Seeks each partition to its first record at or after {@code since}, or to its end when none. */
    void seekTo(Collection<TopicPartition> partitions, Instant since) {
        Map<TopicPartition, Long> times = new HashMap<>();
        partitions.forEach(tp -> times.put(tp, since.toEpochMilli()));
        Map<TopicPartition, OffsetAndTimestamp> offsets = consumer.offsetsForTimes(times);
        Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
        for (TopicPartition tp : partitions) {
            OffsetAndTimestamp at = offsets.get(tp);
            consumer.seek(tp, at == null ? ends.get(tp) : at.offset());
        }
    }

    /** Leaves {@code partitions} assigned but unread until {@link #resume}. */
    void pause(Collection<TopicPartition> partitions) {
        consumer.pause(partitions);
    }

    void resume(Collection<TopicPartition> partitions) {
        consumer.resume(partitions);
    }

    /**
     * Reads the assigned, unpaused partitions up to their ends as of now; gives up when no partition
     * advanced for {@code idleLimit} (a broker gone away), so it never hangs.
     */
    void drain(Duration idleLimit) {
        var unpaused = new ArrayList<>(consumer.assignment());
        unpaused.removeAll(consumer.paused());
        Map<TopicPartition, Long> ends = consumer.endOffsets(unpaused);
        long lastProgress = System.nanoTime();
        long positions = positions(ends.keySet());
        while (ends.entrySet().stream().anyMatch(e -> consumer.position(e.getKey()) < e.getValue())
                && System.nanoTime() - lastProgress < idleLimit.toNanos()) {
            poll(Duration.ofMillis(100));
            long now = positions(ends.keySet());
            if (now != positions) {
                positions = now;
                lastProgress = System.nanoTime();
            }
        }
    }

    private long positions(Collection<TopicPartition> partitions) {
        return partitions.stream().mapToLong(consumer::position).sum();
    }

    /** One poll: every record it returns goes to its topic's handlers. */
    void poll(Duration timeout) {
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(timeout)) {
            // Neither a key-less record nor a tombstone belongs to any run.
            if (record.key() != null && record.value() != null) {
                handlers.getOrDefault(record.topic(), List.of()).forEach(h -> h.accept(record));
            }
        }
    }

    /** Polls in rounds of at most 200 ms until {@code done} holds or {@code wait} passed. */
    void pollUntil(BooleanSupplier done, Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        while (!done.getAsBoolean() && System.nanoTime() < deadline) {
            long leftMs = Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
            poll(Duration.ofMillis(Math.min(200, leftMs)));
        }
    }

    /** Records that could not be decoded (skipped). */
    long unreadableRecords() {
        return unreadable;
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(5));
    }
}
