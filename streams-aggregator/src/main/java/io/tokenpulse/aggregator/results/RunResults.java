package io.tokenpulse.aggregator.results;

import io.tokenpulse.schemas.TopicSpec;
import io.tokenpulse.schemas.Topics;
import io.tokenpulse.schemas.avro.RequestMetrics;
import io.tokenpulse.schemas.avro.RunEvent;
import io.tokenpulse.schemas.avro.RunStarted;
import io.tokenpulse.schemas.avro.RunSummary;
import io.tokenpulse.schemas.avro.WindowMetrics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Reads one run's results back from Kafka: its run-summary record and, when asked, its per-request
 * metrics (for {@code --save-detailed}); or, for {@code replay}, the stored run itself
 * ({@link #readStored}: its shard records and request metrics, to be scored again); or, for a chart,
 * its window metrics ({@link #readWindows}). Reads only
 * committed records, so what it returns is what the exactly-once topology produced.
 *
 * <p>Not thread-safe: one caller polls. Bad records (another schema on the topic) are skipped and
 * counted rather than stopping the read.
 */
public final class RunResults implements AutoCloseable {

    /** How many run ids an unknown-run message lists. */
    private static final int RUNS_LISTED = 10;

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final TopicSpec<RunSummary> summaries;
    private final TopicSpec<RequestMetrics> requestMetrics;
    private final TopicSpec<RunEvent> runs;
    private final TopicSpec<WindowMetrics> windowMetrics;
    private final String runId;
    private final boolean keepRequests;
    private final Map<Integer, RequestMetrics> requests = new TreeMap<>();
    // The latest update of each window, by window start.
    private final Map<Long, WindowMetrics> windows = new TreeMap<>();
    private final List<RunEvent> runEvents = new ArrayList<>();
    // Every run id on the runs topic with its newest record's timestamp, for the unknown-run message.
    private final Map<String, Long> runsSeen = new HashMap<>();
    private RunSummary summary;
    private long unreadable;

    private RunResults(KafkaConsumer<byte[], byte[]> consumer, Topics topics, String runId, boolean keepRequests) {
        this.consumer = consumer;
        this.summaries = topics.runSummaries();
        this.requestMetrics = topics.requestMetrics();
        this.runs = topics.runs();
        this.windowMetrics = topics.windowMetrics();
        this.runId = runId;
        this.keepRequests = keepRequests;
    }

    /**
     * A run as stored in Kafka: its shards' RunStarted/RunFinished records and its request metrics.
     *
     * @param runId     the run
     * @param runEvents the run's records from the runs topic, in topic order
     * @param requests  its request-metrics records, in request-index order
     */
    public record StoredRun(String runId, List<RunEvent> runEvents, List<RequestMetrics> requests) {
        public StoredRun {
            runEvents = List.copyOf(runEvents);
            requests = List.copyOf(requests);
        }

        /** The run's shards, once every one has started and finished. */
        public Optional<RunShards> shards() {
            return RunShards.ifComplete(runEvents);
        }

        /**
         * What the run still lacks to be scored (shard records, request metrics), in one line; empty
         * when it is complete.
         */
        public Optional<String> missing() {
            Optional<String> shardRecords = RunShards.missing(runEvents);
            if (shardRecords.isPresent()) {
                return Optional.of(shardRecords.get() + " (" + requests.size() + " request metrics so far)");
            }
            long started = shards().orElseThrow().requestsStarted();
            return requests.size() >= started ? Optional.empty()
                    : Optional.of((started - requests.size()) + " of " + started + " request metrics");
        }
    }

    /**
     * Reads a stored run: every record of the runs topic (from the beginning) for the run's shard
     * records, then its request metrics from the run's start on (found with offsetsForTimes, so the
     * runs before it are skipped). Reads up to the topics' ends, then waits up to {@code wait} for
     * what a still-running run lacks; the caller checks {@link StoredRun#missing()}.
     *
     * @param clientProperties Kafka client properties incl. bootstrap.servers and security settings
     * @param wait             how long to wait for a run that is not complete when the topics are read
     * @throws IllegalArgumentException when the runs topic has no record of {@code runId}; the message
     *     lists the newest runs it has
     */
    public static StoredRun readStored(Topics topics, Properties clientProperties, String runId, Duration wait) {
        KafkaConsumer<byte[], byte[]> consumer = consumer(clientProperties);
        try (RunResults reader = new RunResults(consumer, topics, runId, true)) {
            reader.readFromRunStart(List.of(topics.requestMetrics().name()), wait);
            long deadline = System.nanoTime() + wait.toNanos();
            while (reader.stored().missing().isPresent() && System.nanoTime() < deadline) {
                reader.pollOnce(Duration.ofMillis(200));
            }
            return reader.stored();
        }
    }

    /**
     * A run's window metrics as stored: the latest update of each window (the topology emits a window
     * again whenever a request finishes in it), and the run's summary once there is one.
     *
     * @param windows the latest record of each window, in window order
     * @param summary the run's summary; empty while the run goes on
     */
    public record StoredWindows(String runId, List<WindowMetrics> windows, Optional<RunSummary> summary) {
        public StoredWindows {
            windows = List.copyOf(windows);
        }

        /**
         * True when the run is finished and its windows count every request of its summary: then no
         * later update can change them (unless a request came later than the window grace).
         */
        public boolean complete() {
            return summary.filter(s -> windows.stream().mapToLong(WindowMetrics::getCompleted).sum() == s.getCompleted()
                    && windows.stream().mapToLong(WindowMetrics::getFailed).sum() == s.getFailed()).isPresent();
        }
    }

    /**
     * Reads a stored run's window metrics and summary, as {@link #readStored} reads its request
     * metrics: the runs topic from the beginning for the run's start, then the window-metrics and
     * run-summaries topics from that start on. Reads up to the topics' ends, then waits up to
     * {@code wait} until the windows are {@linkplain StoredWindows#complete() complete}; a run still
     * going is returned as far as it got.
     *
     * @param clientProperties Kafka client properties incl. bootstrap.servers and security settings
     * @throws IllegalArgumentException when the runs topic has no record of {@code runId}; the message
     *     lists the newest runs it has
     */
    public static StoredWindows readWindows(Topics topics, Properties clientProperties, String runId, Duration wait) {
        KafkaConsumer<byte[], byte[]> consumer = consumer(clientProperties);
        try (RunResults reader = new RunResults(consumer, topics, runId, false)) {
            reader.readFromRunStart(List.of(topics.windowMetrics().name(), topics.runSummaries().name()), wait);
            long deadline = System.nanoTime() + wait.toNanos();
            while (!reader.storedWindows().complete() && System.nanoTime() < deadline) {
                reader.pollOnce(Duration.ofMillis(200));
            }
            return reader.storedWindows();
        }
    }

    /**
     * Reads the runs topic from the beginning for the run's records, then {@code topicsOfTheRun} from
     * the run's start on (found with offsetsForTimes, so the runs before it are skipped), both up to
     * their ends.
     *
     * @throws IllegalArgumentException when the runs topic has no record of the run
     */
    private void readFromRunStart(List<String> topicsOfTheRun, Duration wait) {
        List<TopicPartition> runPartitions = partitions(consumer, List.of(runs.name()));
        List<TopicPartition> later = partitions(consumer, topicsOfTheRun);
        List<TopicPartition> all = new ArrayList<>(runPartitions);
        all.addAll(later);
        consumer.assign(all);
        consumer.seekToBeginning(runPartitions);
        consumer.pause(later);
        drain(wait);
        if (runEvents.isEmpty()) {
            throw new IllegalArgumentException("no run " + runId + " in topic " + runs.name()
                    + "; runs seen: " + newestRuns() + " (latest first, up to " + RUNS_LISTED + ")");
        }
        Instant since = runEvents.stream()
                .filter(e -> e.getEvent() instanceof RunStarted)
                .map(e -> Instant.ofEpochSecond(0, ((RunStarted) e.getEvent()).getScheduleStartEpochNs()))
                .min(Instant::compareTo).orElse(Instant.EPOCH);
        seekTo(consumer, later, since);
        consumer.resume(later);
        drain(wait);
    }

    private StoredRun stored() {
        return new StoredRun(runId, runEvents, requests.values().stream().toList());
    }

    private StoredWindows storedWindows() {
        return new StoredWindows(runId, windows.values().stream().toList(), Optional.ofNullable(summary));
    }

    private String newestRuns() {
        if (runsSeen.isEmpty()) {
            return "none";
        }
        return runsSeen.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .limit(RUNS_LISTED)
                .map(Map.Entry::getKey)
                .collect(Collectors.joining(", "));
    }

    /**
     * Starts reading at {@code since} (records older than that cannot belong to the run), so a data
     * directory holding many earlier runs is not scanned from the beginning.
     *
     * @param clientProperties Kafka client properties incl. bootstrap.servers and security settings
     */
    public static RunResults open(Topics topics, Properties clientProperties, String runId, Instant since,
                                  boolean keepRequests) {
        KafkaConsumer<byte[], byte[]> consumer = consumer(clientProperties);
        try {
            List<TopicPartition> partitions = partitions(consumer,
                    List.of(topics.runSummaries().name(), topics.requestMetrics().name()));
            consumer.assign(partitions);
            seekTo(consumer, partitions, since);
            return new RunResults(consumer, topics, runId, keepRequests);
        } catch (RuntimeException e) {
            consumer.close();
            throw e;
        }
    }

    private static KafkaConsumer<byte[], byte[]> consumer(Properties clientProperties) {
        Properties props = new Properties();
        props.putAll(clientProperties);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        return new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    private static List<TopicPartition> partitions(KafkaConsumer<?, ?> consumer, List<String> topics) {
        List<TopicPartition> partitions = new ArrayList<>();
        for (String topic : topics) {
            for (PartitionInfo p : consumer.partitionsFor(topic, Duration.ofSeconds(30))) {
                partitions.add(new TopicPartition(p.topic(), p.partition()));
            }
        }
        return partitions;
    }

    /** Seeks each partition to its first record at or after {@code since}, or to its end when none. */
    private static void seekTo(KafkaConsumer<?, ?> consumer, Collection<TopicPartition> partitions, Instant since) {
        Map<TopicPartition, Long> times = new HashMap<>();
        partitions.forEach(tp -> times.put(tp, since.toEpochMilli()));
        Map<TopicPartition, OffsetAndTimestamp> offsets = consumer.offsetsForTimes(times);
        Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
        for (TopicPartition tp : partitions) {
            OffsetAndTimestamp at = offsets.get(tp);
            consumer.seek(tp, at == null ? ends.get(tp) : at.offset());
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
            pollOnce(Duration.ofMillis(Math.min(200, leftMs)));
        }
        // Request metrics are committed in the same transaction as the summary or before it; one more
        // poll round picks up those fetched after the summary's partition.
        if (summary != null && keepRequests) {
            drain(Duration.ofSeconds(10));
        }
        return Optional.ofNullable(summary);
    }

    /** The run's per-request metrics seen so far, in request-index order (empty unless kept). */
    public List<RequestMetrics> requests() {
        return List.copyOf(requests.values());
    }

    /** Records that could not be decoded (skipped). */
    public long unreadableRecords() {
        return unreadable;
    }

    /**
     * Reads the assigned, unpaused partitions up to their ends as of now; gives up when no partition
     * advanced for {@code idleLimit} (a broker gone away), so it never hangs.
     */
    private void drain(Duration idleLimit) {
        var unpaused = new ArrayList<>(consumer.assignment());
        unpaused.removeAll(consumer.paused());
        Map<TopicPartition, Long> ends = consumer.endOffsets(unpaused);
        long lastProgress = System.nanoTime();
        long positions = positions(ends.keySet());
        while (ends.entrySet().stream().anyMatch(e -> consumer.position(e.getKey()) < e.getValue())
                && System.nanoTime() - lastProgress < idleLimit.toNanos()) {
            pollOnce(Duration.ofMillis(100));
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

    private void pollOnce(Duration timeout) {
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(timeout)) {
            accept(record);
        }
    }

    private void accept(ConsumerRecord<byte[], byte[]> record) {
        if (record.key() == null || record.value() == null) {
            return;
        }
        String key = new String(record.key(), StandardCharsets.UTF_8);
        if (record.topic().equals(summaries.name())) {
            if (key.equals(runId)) {
                decode(summaries.valueSerde().deserializer(), record).ifPresent(s -> summary = s);
            }
        } else if (record.topic().equals(runs.name())) {
            runsSeen.merge(key, record.timestamp(), Math::max);
            if (key.equals(runId)) {
                decode(runs.valueSerde().deserializer(), record)
                        .filter(e -> e.getRunId().equals(runId))
                        .ifPresent(runEvents::add);
            }
        } else if (record.topic().equals(windowMetrics.name())) {
            if (key.equals(runId)) {
                decode(windowMetrics.valueSerde().deserializer(), record)
                        .filter(w -> w.getRunId().equals(runId))
                        .ifPresent(w -> windows.put(w.getWindowStartEpochMs(), w));
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
