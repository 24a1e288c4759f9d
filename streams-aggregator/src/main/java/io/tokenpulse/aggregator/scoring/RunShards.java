package io.tokenpulse.aggregator.scoring;

import io.tokenpulse.schemas.avro.RunEvent;
import io.tokenpulse.schemas.avro.RunFinished;
import io.tokenpulse.schemas.avro.RunStarted;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.IntStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The RunStarted and RunFinished records of one run's shards, by shard index: every shard's once all
 * {@code shardCount} are in ({@link #ifComplete}, what a run needs before it is summarized), or those
 * stored so far ({@link #asStored}, for scoring a run that cannot be completed: a shard killed mid-run
 * is then one of the {@link #missingShards}).
 *
 * @param startedByShard  the RunStarted records in, by shard index
 * @param finishedByShard the RunFinished records in, by shard index
 * @param shardCount      the {@code --shard-count} the shards were started with
 */
public record RunShards(
        SortedMap<Integer, RunStarted> startedByShard,
        SortedMap<Integer, RunFinished> finishedByShard,
        int shardCount) {
    private static final Logger LOG = LoggerFactory.getLogger(RunShards.class);

    public RunShards {
        startedByShard = Collections.unmodifiableSortedMap(new TreeMap<>(startedByShard));
        finishedByShard = Collections.unmodifiableSortedMap(new TreeMap<>(finishedByShard));
        if (startedByShard.isEmpty()) {
            throw new IllegalArgumentException("need at least one RunStarted");
        }
    }

    /** The RunStarted records in, in shard order. */
    public List<RunStarted> started() {
        return List.copyOf(startedByShard.values());
    }

    /** The RunFinished records in, in shard order. */
    public List<RunFinished> finished() {
        return List.copyOf(finishedByShard.values());
    }

    /** The shards whose RunStarted or RunFinished is not in, ascending; empty for a whole run. */
    public List<Integer> missingShards() {
        return IntStream.range(0, shardCount)
                .filter(shard -> !startedByShard.containsKey(shard) || !finishedByShard.containsKey(shard))
                .boxed()
                .toList();
    }

    /** The shards of {@code events} (one run's records, any order), or empty while any is missing. */
    public static Optional<RunShards> ifComplete(List<RunEvent> events) {
        return collect(events).complete();
    }

    /**
     * The shard records {@code events} hold, whether or not every shard's are there; empty without
     * any RunStarted (then nothing says when the run started or how it was configured).
     */
    public static Optional<RunShards> asStored(List<RunEvent> events) {
        Collected c = collect(events);
        SortedMap<Integer, RunStarted> started = present(c.started);
        return started.isEmpty()
                ? Optional.empty()
                : Optional.of(new RunShards(started, present(c.finished), c.started.length));
    }

    /**
     * What keeps {@code events} from being a complete run, e.g. {@code RunFinished of shard 1 of 2};
     * empty when nothing is missing.
     */
    public static Optional<String> missing(List<RunEvent> events) {
        Collected c = collect(events);
        if (c.started.length == 0) {
            return Optional.of("every RunStarted and RunFinished");
        }
        List<String> missing = new ArrayList<>();
        for (int shard = 0; shard < c.started.length; shard++) {
            if (c.started[shard] == null) {
                missing.add("RunStarted of shard " + shard + " of " + c.started.length);
            }
            if (c.finished[shard] == null) {
                missing.add("RunFinished of shard " + shard + " of " + c.started.length);
            }
        }
        return missing.isEmpty() ? Optional.empty() : Optional.of(String.join(", ", missing));
    }

    /**
     * The run's schedule start (the earliest shard's) once every shard's RunStarted is in, whether or
     * not any finished; empty before.
     */
    public static OptionalLong scheduleStartOnceStarted(List<RunEvent> events) {
        RunStarted[] started = collect(events).started;
        if (started.length == 0 || Arrays.stream(started).anyMatch(Objects::isNull)) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(new RunShards(present(started), new TreeMap<>(), started.length).scheduleStartEpochNs());
    }

    /** The records of {@code byShard} that are there, by their index. */
    private static <T> SortedMap<Integer, T> present(T[] byShard) {
        SortedMap<Integer, T> present = new TreeMap<>();
        for (int shard = 0; shard < byShard.length; shard++) {
            if (byShard[shard] != null) {
                present.put(shard, byShard[shard]);
            }
        }
        return present;
    }

    private record Collected(RunStarted[] started, RunFinished[] finished) {
        Optional<RunShards> complete() {
            for (int shard = 0; shard < started.length; shard++) {
                if (started[shard] == null || finished[shard] == null) {
                    return Optional.empty();
                }
            }
            return started.length == 0
                    ? Optional.empty()
                    : Optional.of(new RunShards(present(started), present(finished), started.length));
        }
    }

    private static Collected collect(List<RunEvent> events) {
        int shardCount = events.isEmpty() ? 0 : events.get(0).getShardCount();
        RunStarted[] started = new RunStarted[shardCount];
        RunFinished[] finished = new RunFinished[shardCount];
        for (RunEvent e : events) {
            if (e.getShardIndex() < 0 || e.getShardIndex() >= shardCount) {
                LOG.warn("run {}: shard {} outside 0..{}; ignored", e.getRunId(), e.getShardIndex(), shardCount - 1);
            } else if (e.getEvent() instanceof RunStarted s) {
                started[e.getShardIndex()] = s;
            } else if (e.getEvent() instanceof RunFinished f) {
                finished[e.getShardIndex()] = f;
            }
        }
        return new Collected(started, finished);
    }

    /** Requests the finished shards announced, summed over them. */
    public long requestsStarted() {
        return finishedByShard.values().stream()
                .mapToLong(RunFinished::getRequestsStarted)
                .sum();
    }

    /**
     * Server-metrics records the finished shards announced, summed over those that scraped; empty when
     * none did (no {@code --server-metrics}, or load generators older than the field).
     */
    public OptionalLong serverMetricRecords() {
        List<Long> announced = finishedByShard.values().stream()
                .map(RunFinished::getServerMetricRecords)
                .filter(Objects::nonNull)
                .toList();
        return announced.isEmpty()
                ? OptionalLong.empty()
                : OptionalLong.of(announced.stream().mapToLong(Long::longValue).sum());
    }

    /** The earliest shard's schedule start: the run's start, ns since the epoch. */
    public long scheduleStartEpochNs() {
        return startedByShard.values().stream()
                .mapToLong(RunStarted::getScheduleStartEpochNs)
                .min()
                .orElseThrow();
    }

    /** The latest shard's finish, ns since the epoch; the run's start when no shard finished. */
    public long lastShardFinishEpochNs() {
        return finishedByShard.values().stream()
                .mapToLong(RunFinished::getFinishedEpochNs)
                .max()
                .orElse(scheduleStartEpochNs());
    }

    /** Every shard carries the whole configuration; the first stored shard's (shard 0's in a whole run) is taken. */
    public RunStarted config() {
        return startedByShard.get(startedByShard.firstKey());
    }
}
