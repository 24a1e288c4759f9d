package io.tokenpulse.runner;

import io.tokenpulse.producer.ClockOffset;
import io.tokenpulse.producer.StartBarrier;
import io.tokenpulse.schemas.TopicAdmin;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The start barrier of a run's shards through Kafka: each shard writes {@code "<index> <count>"} under
 * the run id to the shard-barrier topic ({@link io.tokenpulse.schemas.Topics#shardBarrier()}), then
 * reads the topic until it has seen every index of the run. All shards then start at the same instant:
 * the latest announcement's timestamp plus {@link #START_MARGIN}, which every shard computes from the
 * same records. The topic is created with {@code LogAppendTime}, so those timestamps are the broker's,
 * and each shard measures its own clock against the broker's on its announcement ({@link ClockOffset}:
 * sent and acknowledged on its clock, appended on the broker's) and waits for the instant on its own
 * clock; shards on other hosts start together as far as that measure goes, whatever NTP says. On a
 * topic that keeps {@code CreateTime} (created by someone else) the timestamps are the announcing
 * shards' clocks and nothing is measured.
 *
 * <p>A shard count that differs from another shard's, or shards missing after the timeout, end the
 * shard before its load with one line ({@link UserError}). One barrier per run; not thread-safe.
 */
final class KafkaStartBarrier implements StartBarrier {

    /** Time for every shard to read the last announcement before the common start, on a loaded host. */
    static final Duration START_MARGIN = Duration.ofSeconds(2);

    private static final Duration POLL = Duration.ofMillis(200);
    private static final Duration KAFKA_WAIT = Duration.ofSeconds(30);

    private final Properties clientProperties;
    private final String topic;
    private final String runId;
    private final Duration timeout;

    KafkaStartBarrier(Properties clientProperties, String topic, String runId, Duration timeout) {
        this.clientProperties = clientProperties;
        this.topic = topic;
        this.runId = runId;
        this.timeout = timeout;
    }

    @Override
    public Optional<ClockOffset> await(int shardIndex, int shardCount, PrintStream out) throws InterruptedException {
        out.println("Shard " + shardIndex + " of " + shardCount + ": waiting up to " + timeout.toSeconds()
                + " s for the other shards of run " + runId);
        long deadlineNs = System.nanoTime() + timeout.toNanos();
        createTopic();
        Map<Integer, Long> readyAtMs = new TreeMap<>();
        Optional<ClockOffset> clock = Optional.empty();
        try (KafkaConsumer<String, String> consumer = consumer()) {
            TopicPartition partition = new TopicPartition(topic, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            Announcement own = announce(shardIndex, shardCount);
            while (readyAtMs.size() < shardCount) {
                if (System.nanoTime() > deadlineNs) {
                    throw UserError.failure(missing(readyAtMs, shardCount));
                }
                for (ConsumerRecord<String, String> record : poll(consumer)) {
                    if (runId.equals(record.key())) {
                        read(record, shardIndex, shardCount)
                                .ifPresent(index -> readyAtMs.putIfAbsent(index, record.timestamp()));
                    }
                    if (record.offset() == own.offset() && record.timestampType() == TimestampType.LOG_APPEND_TIME) {
                        clock = Optional.of(ClockOffset.measured(own.sentMs(), own.ackedMs(), record.timestamp()));
                    }
                }
                if (Thread.interrupted()) {
                    throw new InterruptedException("stopped at the shards' start barrier");
                }
            }
        }
        long startMs =
                readyAtMs.values().stream().mapToLong(Long::longValue).max().orElseThrow() + START_MARGIN.toMillis();
        long startHereMs = clock.map(c -> c.onShardClock(startMs)).orElse(startMs);
        long waitMs = startHereMs - System.currentTimeMillis();
        out.println("All " + shardCount + " shards ready; starting at " + Instant.ofEpochMilli(startMs)
                + clock.map(KafkaStartBarrier::clockNote).orElse("")
                + (waitMs < 0 ? " (" + -waitMs + " ms late here)" : ""));
        if (waitMs > 0) {
            TimeUnit.MILLISECONDS.sleep(waitMs);
        }
        return clock;
    }

    /** The note on the start line: the start is the broker's instant, this clock's offset from it. */
    private static String clockNote(ClockOffset clock) {
        return String.format(
                Locale.ROOT,
                " on the broker's clock (this host's clock %+.1f ms ± %.1f ms from it)",
                clock.offsetMs(),
                clock.uncertaintyMs());
    }

    /** This shard's announcement: where it landed, and when it was sent and acknowledged on this clock. */
    private record Announcement(long offset, long sentMs, long ackedMs) {}

    /** Kafka's own interrupt (a Ctrl-C while waiting) as Java's, which the load generator expects. */
    private static Iterable<ConsumerRecord<String, String>> poll(KafkaConsumer<String, String> consumer)
            throws InterruptedException {
        try {
            return consumer.poll(POLL);
        } catch (org.apache.kafka.common.errors.InterruptException e) {
            Thread.interrupted();
            throw new InterruptedException("stopped at the shards' start barrier");
        }
    }

    /** The shard index a record announces; a count other than ours is the user's mistake, one line. */
    private Optional<Integer> read(ConsumerRecord<String, String> record, int shardIndex, int shardCount) {
        String[] parts = record.value().strip().split(" ");
        int index;
        int count;
        try {
            index = Integer.parseInt(parts[0]);
            count = Integer.parseInt(parts[1]);
        } catch (RuntimeException e) {
            return Optional.empty(); // not one of ours: nothing to start on
        }
        if (count != shardCount) {
            throw UserError.usage("shard " + index + " of run " + runId + " was started with --shard-count " + count
                    + ", this shard (" + shardIndex + ") with --shard-count " + shardCount
                    + ": start every shard of a run with the same --shard-count");
        }
        return index >= 0 && index < count ? Optional.of(index) : Optional.empty();
    }

    private String missing(Map<Integer, Long> ready, int shardCount) {
        String absent = IntStream.range(0, shardCount)
                .filter(i -> !ready.containsKey(i))
                .mapToObj(Integer::toString)
                .collect(Collectors.joining(", "));
        return "shard" + (shardCount - ready.size() == 1 ? " " : "s ") + absent + " of run " + runId
                + " did not show up within " + timeout.toSeconds() + " s: start every shard with --run-id " + runId
                + " --shard-count " + shardCount + " and its own --shard-index, or raise --shard-start-timeout-s";
    }

    private Announcement announce(int shardIndex, int shardCount) {
        Properties props = new Properties();
        props.putAll(clientProperties);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, Long.toString(KAFKA_WAIT.toMillis()));
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            // the metadata first, so that the measured round trip is the record's alone
            producer.partitionsFor(topic);
            long sentMs = System.currentTimeMillis();
            RecordMetadata written = producer.send(new ProducerRecord<>(topic, 0, runId, shardIndex + " " + shardCount))
                    .get(KAFKA_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            return new Announcement(written.offset(), sentMs, System.currentTimeMillis());
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            throw UserError.failure("cannot announce this shard on " + topic + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw UserError.failure("interrupted while announcing this shard on " + topic);
        }
    }

    private KafkaConsumer<String, String> consumer() {
        Properties props = new Properties();
        props.putAll(clientProperties);
        // assigned, not subscribed: no group, nothing committed
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        return new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer());
    }

    /** One partition (every shard reads every announcement), copies as many as the cluster has, up to 3. */
    private void createTopic() {
        short copies = (short) Math.min(3, TopicAdmin.brokers(clientProperties, KAFKA_WAIT));
        Properties props = new Properties();
        props.putAll(clientProperties);
        try (Admin admin = Admin.create(props)) {
            // a day: announcements matter only while shards wait; the broker's timestamps, one clock for all
            NewTopic barrier = new NewTopic(topic, 1, copies)
                    .configs(Map.of(
                            TopicConfig.RETENTION_MS_CONFIG,
                            "86400000",
                            TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG,
                            "LogAppendTime"));
            admin.createTopics(List.of(barrier)).all().get(KAFKA_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw UserError.failure("cannot create the shard-barrier topic " + topic + ": "
                        + e.getCause().getMessage());
            }
        } catch (java.util.concurrent.TimeoutException e) {
            throw UserError.failure(
                    "cannot create the shard-barrier topic " + topic + " within " + KAFKA_WAIT.toSeconds() + " s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw UserError.failure("interrupted while creating the shard-barrier topic " + topic);
        }
    }
}
