package io.tokenpulse.aggregator.results;

import io.tokenpulse.schemas.TopicSpec;
import io.tokenpulse.schemas.avro.RunEvent;
import io.tokenpulse.schemas.avro.RunStarted;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.common.TopicPartition;

/**
 * Where a stored run begins: its shard records, read from the beginning of the runs topic, and from
 * its earliest schedule start on, the topics that hold what it produced (found with offsetsForTimes,
 * so a data directory holding many earlier runs is not scanned from the beginning).
 */
final class RunStart {
    /** How many run ids an unknown-run message lists. */
    private static final int RUNS_LISTED = 10;

    private RunStart() {}

    /**
     * Reads the run's records from {@code runs} into a list it returns (later records of the run,
     * polled by the caller, are added to it too), then positions {@code reader} on {@code topicsOfTheRun}
     * at the run's start (less each topic's lead: how long before the start its records of the run
     * begin) and reads them up to their ends.
     *
     * @throws IllegalArgumentException when the runs topic has no record of the run; the message lists
     *     the newest runs it has
     */
    static List<RunEvent> readFrom(
            TopicReader reader,
            TopicSpec<RunEvent> runs,
            String runId,
            Map<String, Duration> topicsOfTheRun,
            Duration wait) {
        List<RunEvent> runEvents = new ArrayList<>();
        // Every run id on the runs topic with its newest record's timestamp, for the unknown-run message.
        Map<String, Long> runsSeen = new HashMap<>();
        reader.observeKeys(runs.name(), (key, timestampMs) -> runsSeen.merge(key, timestampMs, Math::max));
        reader.decode(runs, runId::equals, event -> {
            if (event.getRunId().equals(runId)) {
                runEvents.add(event);
            }
        });
        List<TopicPartition> runPartitions = reader.partitions(List.of(runs.name()));
        List<TopicPartition> later = reader.partitions(List.copyOf(topicsOfTheRun.keySet()));
        List<TopicPartition> all = new ArrayList<>(runPartitions);
        all.addAll(later);
        reader.assign(all);
        reader.seekToBeginning(runPartitions);
        reader.pause(later);
        reader.drain(wait);
        if (runEvents.isEmpty()) {
            throw new IllegalArgumentException("no run " + runId + " in topic " + runs.name() + "; runs seen: "
                    + newest(runsSeen) + " (latest first, up to " + RUNS_LISTED + ")");
        }
        Instant since = runEvents.stream()
                .filter(e -> e.getEvent() instanceof RunStarted)
                .map(e -> Instant.ofEpochSecond(0, ((RunStarted) e.getEvent()).getScheduleStartEpochNs()))
                .min(Instant::compareTo)
                .orElse(Instant.EPOCH);
        later.stream()
                .collect(Collectors.groupingBy(TopicPartition::topic))
                .forEach((topic, partitions) -> reader.seekTo(partitions, since.minus(topicsOfTheRun.get(topic))));
        reader.resume(later);
        reader.drain(wait);
        return runEvents;
    }

    private static String newest(Map<String, Long> runsSeen) {
        if (runsSeen.isEmpty()) {
            return "none";
        }
        return runsSeen.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .limit(RUNS_LISTED)
                .map(Map.Entry::getKey)
                .collect(Collectors.joining(", "));
    }
}
