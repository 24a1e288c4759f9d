package io.tokenpulse.aggregator.topology;

import io.tokenpulse.schemas.avro.RequestMetrics;
import io.tokenpulse.schemas.avro.ServerMetric;
import io.tokenpulse.schemas.avro.WindowMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * The live tumbling windows of each run (key run id): a request counts in the window its finish
 * falls in (its record timestamp), a scrape's delta in the window of its time. Every {@code
 * flushInterval} of wall-clock time each window that changed is written to its store and emitted as
 * a {@link WindowMetrics}; a window takes records until stream time passes its end by {@code grace},
 * then it is dropped (a later record for it is not counted there, as Kafka Streams' windowed
 * aggregations do). A run's summary ({@link RunSummarized}) flushes that run's windows at once.
 *
 * <p>The flush is scheduled only while a record waits for it: Kafka Streams commits after every
 * punctuation, and under exactly-once each commit is a transaction (offsets, markers, the
 * coordinator's log), ten a second at 100 ms even when nothing came in (issue 30). Nothing else
 * changes between records: stream time, hence which windows are closed, moves only with them.
 *
 * <p>Why not the DSL's windowed aggregate: it reads and rewrites a window's whole state (up to
 * {@link WindowRecords#WINDOW_EXACT_LIMIT} samples per metric, then sketches) for every request
 * that finishes in it; with short requests that was 50-68 % of the stream thread (issue 14). Here an
 * open window is an object changed in place and serialized once per flush. A record waits in a
 * pending store until its window's flush, so that under exactly-once a commit between the record and
 * the flush keeps it: a task that restarts applies the pending records again to the stored windows.
 */
final class RunWindows implements Processor<String, RunWindows.Input, String, WindowMetrics> {
    /** Each open window's state ({@link WindowRecords.State}), key {@code <run id>/<start ms>}. */
    static final String STATES_STORE = "run-window-states";
    /**
     * Records not yet in a stored window, key {@code <window key>/<topic>/<partition>/<offset>/<n>}: the
     * source record's position, and {@code n} counting the records it led to (a shard's RunStarted
     * releases every request that waited for it).
     */
    static final String PENDING_STORE = "run-window-pending";

    private static final int START_DIGITS = 19;

    /** What the windows take in, key run id. */
    sealed interface Input permits Counted, RunSummarized {}

    /** What counts in a window: it waits in the pending store until its window is written. */
    sealed interface Counted extends Input permits Request, ServerDelta {
        /** The record as the pending store keeps it. */
        SpecificRecord avro();
    }

    /** A request's metrics on the epoch clock: it counts in the window of its finish (the record's timestamp). */
    record Request(RequestMetrics metrics) implements Counted {
        @Override
        public SpecificRecord avro() {
            return metrics;
        }
    }

    /** What one scrape adds ({@link ServerSeries}): it counts in the window of its scrape time. */
    record ServerDelta(ServerMetric delta) implements Counted {
        @Override
        public SpecificRecord avro() {
            return delta;
        }
    }

    /** The run's summary passed: the run's windows are written and emitted at once. */
    record RunSummarized() implements Input {}

    private final long sizeMs;
    private final long graceMs;
    private final Duration flushInterval;
    private ProcessorContext<String, WindowMetrics> context;
    private KeyValueStore<String, WindowRecords.State> states;
    private KeyValueStore<String, Counted> pending;
    // by key, so that a run's windows are written and emitted in time order
    private final NavigableMap<String, OpenWindow> open = new TreeMap<>();
    private long observedStreamTimeMs = Long.MIN_VALUE;
    /** The next flush; null while no record waits for one. */
    private Cancellable nextFlush;

    private String lastSource = "";
    private int fromLastSource;

    RunWindows(Duration size, Duration grace, Duration flushInterval) {
        this.sizeMs = size.toMillis();
        this.graceMs = grace.toMillis();
        this.flushInterval = flushInterval;
    }

    static List<StoreBuilder<?>> stores() {
        return List.of(
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(STATES_STORE), Serdes.String(), WindowRecords.serde()),
                // a record's entry is mostly deleted before the commit: the cache then writes nothing for it
                Stores.keyValueStoreBuilder(
                                Stores.persistentKeyValueStore(PENDING_STORE), Serdes.String(), pendingSerde())
                        .withCachingEnabled());
    }

    /**
     * A pending record in the bytes it always had: the Avro union of a request's metrics and a scrape's
     * delta, so that what a task stopped before flushing reads back after an upgrade.
     */
    static Serde<Counted> pendingSerde() {
        Serde<SpecificRecord> union =
                StoreSerdes.avro(Schema.createUnion(RequestMetrics.getClassSchema(), ServerMetric.getClassSchema()));
        return Serdes.serdeFrom(
                (topic, counted) -> counted == null ? null : union.serializer().serialize(topic, counted.avro()),
                (topic, bytes) ->
                        bytes == null ? null : counted(union.deserializer().deserialize(topic, bytes)));
    }

    private static Counted counted(SpecificRecord stored) {
        return stored instanceof RequestMetrics request ? new Request(request) : new ServerDelta((ServerMetric) stored);
    }

    static String[] storeNames() {
        return new String[] {STATES_STORE, PENDING_STORE};
    }

    /** A window with its state in memory, and the pending records its stored state lacks. */
    private static final class OpenWindow {
        final String runId;
        final long startMs;
        final WindowRecords.State state;
        final List<String> pendingKeys = new ArrayList<>();
        long newestTimestampMs = Long.MIN_VALUE;

        OpenWindow(String runId, long startMs, WindowRecords.State state) {
            this.runId = runId;
            this.startMs = startMs;
            this.state = state;
        }
    }

    @Override
    public void init(ProcessorContext<String, WindowMetrics> context) {
        this.context = context;
        states = context.getStateStore(STATES_STORE);
        pending = context.getStateStore(PENDING_STORE);
        // What a previous instance of the task took in but had not flushed when it stopped.
        try (KeyValueIterator<String, Counted> it = pending.all()) {
            while (it.hasNext()) {
                var entry = it.next();
                apply(windowKeyOf(entry.key), entry.value, entry.key, Long.MIN_VALUE);
            }
        }
        if (!open.isEmpty()) {
            flushSoon();
        }
    }

    @Override
    public void process(Record<String, Input> record) {
        if (record.value() instanceof Counted counted) {
            count(record, counted);
        } else {
            // in the summary's transaction, so that a reader of the summary finds the run's windows whole
            // the run's keys: from "<run>/" up to "<run>0" ('0' follows '/')
            flush(open.subMap(record.key() + "/", record.key() + "0"));
            // bench waits for the summary: commit now, not after the commit interval and the next poll
            context.commit();
        }
    }

    private void count(Record<String, Input> record, Counted counted) {
        flushSoon(); // also when the record is late: stream time may close other windows
        // the newest timestamp among this processor's records, as Kafka Streams' windowed aggregations
        // count it: the task's stream time also moves with other topics' records (the load generator's
        // clock), which would close windows that are still due their requests
        observedStreamTimeMs = Math.max(observedStreamTimeMs, record.timestamp());
        long startMs = record.timestamp() - Math.floorMod(record.timestamp(), sizeMs);
        if (startMs + sizeMs <= observedStreamTimeMs - graceMs) {
            return; // its window is closed
        }
        String windowKey = windowKey(record.key(), startMs);
        RecordMetadata metadata = context.recordMetadata().orElseThrow();
        String source = metadata.topic() + "/" + metadata.partition() + "/" + metadata.offset();
        fromLastSource = source.equals(lastSource) ? fromLastSource + 1 : 0;
        lastSource = source;
        String pendingKey = windowKey + "/" + source + "/" + fromLastSource;
        pending.put(pendingKey, counted);
        apply(windowKey, counted, pendingKey, record.timestamp());
    }

    private void apply(String windowKey, Counted input, String pendingKey, long timestampMs) {
        OpenWindow window = open.computeIfAbsent(windowKey, key -> {
            WindowRecords.State stored = states.get(key);
            return new OpenWindow(runIdOf(key), startOf(key), stored == null ? WindowRecords.empty() : stored);
        });
        WindowRecords.add(window.state, input);
        window.pendingKeys.add(pendingKey);
        window.newestTimestampMs = Math.max(window.newestTimestampMs, timestampMs);
    }

    private void flushSoon() {
        if (nextFlush == null) {
            nextFlush = context.schedule(flushInterval, PunctuationType.WALL_CLOCK_TIME, now -> flushAll());
        }
    }

    /** After it every window is clean until the next record: no flush is due until then. */
    private void flushAll() {
        flush(open);
        nextFlush.cancel();
        nextFlush = null;
    }

    /** Writes and emits each of {@code windows} that changed, then forgets the closed ones. */
    private void flush(Map<String, OpenWindow> windows) {
        // none closed before this processor saw a record (after a restart: only pending ones)
        long closedBeforeMs = observedStreamTimeMs == Long.MIN_VALUE ? Long.MIN_VALUE : observedStreamTimeMs - graceMs;
        var it = windows.entrySet().iterator();
        while (it.hasNext()) {
            var entry = it.next();
            OpenWindow window = entry.getValue();
            if (!window.pendingKeys.isEmpty()) {
                states.put(entry.getKey(), window.state);
                window.pendingKeys.forEach(pending::delete);
                window.pendingKeys.clear();
                long endMs = window.startMs + sizeMs;
                long timestampMs = window.newestTimestampMs == Long.MIN_VALUE ? endMs - 1 : window.newestTimestampMs;
                context.forward(new Record<>(
                        window.runId,
                        WindowRecords.toRecord(window.runId, window.startMs, endMs, window.state),
                        timestampMs));
            }
            if (window.startMs + sizeMs <= closedBeforeMs) {
                states.delete(entry.getKey());
                it.remove();
            }
        }
    }

    /** Zero-padded, so that a run's windows sort by time. */
    static String windowKey(String runId, long startMs) {
        return StoreKeys.padded(runId, startMs, START_DIGITS);
    }

    /** A pending record's window: its key without the last four parts (topic, partition, offset, n). */
    private static String windowKeyOf(String pendingKey) {
        int end = pendingKey.length();
        for (int part = 0; part < 4; part++) {
            end = pendingKey.lastIndexOf('/', end - 1);
        }
        return pendingKey.substring(0, end);
    }

    private static String runIdOf(String windowKey) {
        return windowKey.substring(0, windowKey.length() - START_DIGITS - 1);
    }

    private static long startOf(String windowKey) {
        return Long.parseLong(windowKey.substring(windowKey.length() - START_DIGITS));
    }
}
