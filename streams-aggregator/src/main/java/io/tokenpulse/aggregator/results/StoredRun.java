package io.tokenpulse.aggregator.results;

import io.tokenpulse.aggregator.scoring.RunShards;
import io.tokenpulse.schemas.Topics;
import io.tokenpulse.schemas.avro.RequestMetrics;
import io.tokenpulse.schemas.avro.RunEvent;
import io.tokenpulse.schemas.avro.ServerMetric;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * A run as stored in Kafka, for {@code replay} to score again: its shards' RunStarted/RunFinished
 * records, its request metrics and the scrapes of the server's {@code /metrics} during it.
 *
 * @param runId         the run
 * @param runEvents     the run's records from the runs topic, in topic order
 * @param requests      its request-metrics records, in request-index order
 * @param serverMetrics its server-metrics records from {@link #SCRAPES_BEFORE_START} before its start
 *     on, in topic order
 */
public record StoredRun(
        String runId, List<RunEvent> runEvents, List<RequestMetrics> requests, List<ServerMetric> serverMetrics) {

    /**
     * How far before the schedule start the server's scrapes are read: the server section counts
     * from each series' last scrape before the start (bench scrapes from before the health check).
     */
    public static final Duration SCRAPES_BEFORE_START = Duration.ofMinutes(10);

    public StoredRun {
        runEvents = List.copyOf(runEvents);
        requests = List.copyOf(requests);
        serverMetrics = List.copyOf(serverMetrics);
    }

    /**
     * Reads a stored run: every record of the runs topic (from the beginning) for the run's shard
     * records, then its request metrics from the run's start on. Reads up to the topics' ends, then
     * waits up to {@code wait} for what a still-running run lacks; the caller checks {@link #missing()}.
     *
     * @param clientProperties Kafka client properties incl. bootstrap.servers and security settings
     * @param wait             how long to wait for a run that is not complete when the topics are read
     * @throws IllegalArgumentException when the runs topic has no record of {@code runId}; the message
     *     lists the newest runs it has
     */
    public static StoredRun read(Topics topics, Properties clientProperties, String runId, Duration wait) {
        try (TopicReader reader = new TopicReader(clientProperties)) {
            Map<Integer, RequestMetrics> requests = new TreeMap<>();
            String prefix = Topics.requestKeyPrefix(runId);
            reader.decode(topics.requestMetrics(), key -> key.startsWith(prefix), m -> {
                if (m.getRunId().equals(runId)) {
                    requests.put(m.getRequestIndex(), m);
                }
            });
            List<ServerMetric> serverMetrics = new ArrayList<>();
            reader.decode(topics.serverMetrics(), runId::equals, m -> {
                if (m.getRunId().equals(runId)) {
                    serverMetrics.add(m);
                }
            });
            List<RunEvent> runEvents = RunStart.readFrom(
                    reader,
                    topics.runs(),
                    runId,
                    Map.of(
                            topics.requestMetrics().name(),
                            Duration.ZERO,
                            topics.serverMetrics().name(),
                            SCRAPES_BEFORE_START),
                    wait);
            Supplier<StoredRun> sofar =
                    () -> new StoredRun(runId, runEvents, List.copyOf(requests.values()), serverMetrics);
            reader.pollUntil(() -> sofar.get().missing().isEmpty(), wait);
            return sofar.get();
        }
    }

    /** The run's shards, once every one has started and finished. */
    public Optional<RunShards> shards() {
        return RunShards.ifComplete(runEvents);
    }

    /** The run's shard records stored so far, complete or not; empty without any RunStarted. */
    public Optional<RunShards> storedShards() {
        return RunShards.asStored(runEvents);
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
        return requests.size() >= started
                ? Optional.empty()
                : Optional.of((started - requests.size()) + " of " + started + " request metrics");
    }
}
