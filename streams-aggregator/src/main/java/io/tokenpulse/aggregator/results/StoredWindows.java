package io.tokenpulse.aggregator.results;

import io.tokenpulse.schemas.Topics;
import io.tokenpulse.schemas.avro.RunSummary;
import io.tokenpulse.schemas.avro.WindowMetrics;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * A run's window metrics as stored, for its chart: the latest update of each window (the topology
 * emits a window again whenever a request finishes in it), and the run's summary once there is one.
 *
 * @param windows the latest record of each window, in window order
 * @param summary the run's summary; empty while the run goes on
 */
public record StoredWindows(String runId, List<WindowMetrics> windows, Optional<RunSummary> summary) {
    public StoredWindows {
        windows = List.copyOf(windows);
    }

    /**
     * Reads a stored run's window metrics and summary: the runs topic from the beginning for the run's
     * start, then the window-metrics and run-summaries topics from that start on. Reads up to the
     * topics' ends, then waits up to {@code wait} until the windows are {@linkplain #complete()
     * complete}; a run still going is returned as far as it got.
     *
     * @param clientProperties Kafka client properties incl. bootstrap.servers and security settings
     * @throws IllegalArgumentException when the runs topic has no record of {@code runId}; the message
     *     lists the newest runs it has
     */
    public static StoredWindows read(Topics topics, Properties clientProperties, String runId, Duration wait) {
        try (TopicReader reader = new TopicReader(clientProperties)) {
            Map<Long, WindowMetrics> windows = new TreeMap<>();
            AtomicReference<RunSummary> summary = new AtomicReference<>();
            reader.decode(topics.windowMetrics(), runId::equals, w -> {
                if (w.getRunId().equals(runId)) {
                    windows.put(w.getWindowStartEpochMs(), w);
                }
            });
            reader.decode(topics.runSummaries(), runId::equals, summary::set);
            RunStart.readFrom(
                    reader,
                    topics.runs(),
                    runId,
                    Map.of(
                            topics.windowMetrics().name(),
                            Duration.ZERO,
                            topics.runSummaries().name(),
                            Duration.ZERO),
                    wait);
            Supplier<StoredWindows> sofar =
                    () -> new StoredWindows(runId, List.copyOf(windows.values()), Optional.ofNullable(summary.get()));
            reader.pollUntil(() -> sofar.get().complete(), wait);
            return sofar.get();
        }
    }

    /**
     * True when the run is finished and its windows count every request of its summary: then no
     * later update can change them (unless a request came later than the window grace).
     */
    public boolean complete() {
        return summary.filter(s -> windows.stream()
                                        .mapToLong(WindowMetrics::getCompleted)
                                        .sum()
                                == s.getCompleted()
                        && windows.stream().mapToLong(WindowMetrics::getFailed).sum() == s.getFailed())
                .isPresent();
    }
}
