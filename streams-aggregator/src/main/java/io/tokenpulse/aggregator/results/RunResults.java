package io.tokenpulse.aggregator.results;

import io.tokenpulse.schemas.Topics;
import io.tokenpulse.schemas.avro.RequestMetrics;
import io.tokenpulse.schemas.avro.RunSummary;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.common.TopicPartition;

/**
 * Waits for a run's results as the topology writes them: its run-summary record and, when asked,
 * its per-request metrics (for {@code --save-detailed}). Opened before the run starts, so nothing
 * the run produces is missed. Stored runs are read by {@link StoredRun} (replay) and
 * {@link StoredWindows} (charts).
 *
 * <p>Not thread-safe: one caller polls.
 */
public final class RunResults implements AutoCloseable {
    private final TopicReader reader;
    private final boolean keepRequests;
    private final Map<Integer, RequestMetrics> requests = new TreeMap<>();
    private RunSummary summary;

    private RunResults(TopicReader reader, Topics topics, String runId, boolean keepRequests) {
        this.reader = reader;
        this.keepRequests = keepRequests;
        reader.decode(topics.runSummaries(), runId::equals, s -> summary = s);
        if (keepRequests) {
            String prefix = Topics.requestKeyPrefix(runId);
            reader.decode(topics.requestMetrics(), key -> key.startsWith(prefix), m -> {
                if (m.getRunId().equals(runId)) {
                    requests.put(m.getRequestIndex(), m);
                }
            });
        }
    }

    /**
     * Starts reading at {@code since} (records older than that cannot belong to the run), so a data
     * directory holding many earlier runs is not scanned from the beginning.
     *
     * @param clientProperties Kafka client properties incl. bootstrap.servers and security settings
     * @param keepRequests     whether to keep the run's request metrics too
     */
    public static RunResults open(
            Topics topics, Properties clientProperties, String runId, Instant since, boolean keepRequests) {
        TopicReader reader = new TopicReader(clientProperties);
        try {
            List<String> read = new ArrayList<>(List.of(topics.runSummaries().name()));
            if (keepRequests) {
                read.add(topics.requestMetrics().name());
            }
            List<TopicPartition> partitions = reader.partitions(read);
            reader.assign(partitions);
            reader.seekTo(partitions, since);
            return new RunResults(reader, topics, runId, keepRequests);
        } catch (RuntimeException e) {
            reader.close();
            throw e;
        }
    }

    /**
     * Polls until the run's summary arrived or {@code timeout} passed.
     *
     * @return the summary, or empty when it did not arrive in time
     */
    public Optional<RunSummary> awaitSummary(Duration timeout) {
        reader.pollUntil(() -> summary != null, timeout);
        // Request metrics are committed in the same transaction as the summary or before it; one more
        // read up to the ends picks up those fetched after the summary's partition.
        if (summary != null) {
            reader.drain(Duration.ofSeconds(10));
        }
        return Optional.ofNullable(summary);
    }

    /** The run's per-request metrics seen so far, in request-index order (empty unless kept). */
    public List<RequestMetrics> requests() {
        return List.copyOf(requests.values());
    }

    /** Records that could not be decoded (skipped). */
    public long unreadableRecords() {
        return reader.unreadableRecords();
    }

    @Override
    public void close() {
        reader.close();
    }
}
