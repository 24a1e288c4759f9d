package io.tokenpulse.aggregator.topology;

import io.tokenpulse.aggregator.scoring.RunShards;
import io.tokenpulse.schemas.avro.RequestMetrics;
import io.tokenpulse.schemas.avro.RunEvent;
import io.tokenpulse.schemas.avro.RunFinished;
import io.tokenpulse.schemas.avro.RunStarted;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.processor.api.ProcessingContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts a run's requests on the epoch clock (key run id). A request's metrics come from the join with
 * times relative to its shard's schedule start; once that shard's RunStarted is in (it travels on
 * another topic, so it may come before or after the request) the shard's anchor is added and the
 * request goes on as {@link RunProgress.Anchored}. Requests that come first wait by shard, key {@code
 * <run>/<shard>/<index>}.
 *
 * <p>Each shard record is kept ({@link Records}: the summarizer reads the run's records and deletes
 * them with the run) and goes on as {@link RunProgress.ShardRecord}. When a RunStarted completes the
 * run's starts, the run's schedule start goes on first ({@link RunProgress.ScheduleStarted}, which
 * begins the server section), then the requests it releases. Records of a run already summarized
 * ({@link SummarizedRuns}) stop here with a warning.
 */
final class ShardAnchors implements FixedKeyProcessor<String, ShardAnchors.Input, RunProgress> {
    /** Requests whose shard's RunStarted is not in yet, key {@code <run>/<shard>/<index>}. */
    static final String AWAITING_ANCHOR_STORE = "run-requests-awaiting-anchor";

    private static final int INDEX_DIGITS = 10;
    // the run stage's warnings keep the logger name they always had
    private static final Logger LOG = LoggerFactory.getLogger(RunSummarizer.class);

    /** What comes in: a shard's record, or a request's metrics from the join. */
    sealed interface Input permits RunProgress.ShardRecord, Unanchored {}

    /** A request's metrics from the join, its times still relative to its shard's schedule start. */
    record Unanchored(RequestMetrics metrics) implements Input {}

    static List<StoreBuilder<?>> stores() {
        return List.of(
                StoreSerdes.persistent(Records.STORE, StoreSerdes.<RunEvent>avro(RunEvent.getClassSchema())),
                StoreSerdes.persistent(
                        AWAITING_ANCHOR_STORE, StoreSerdes.<RequestMetrics>avro(RequestMetrics.getClassSchema())));
    }

    static String[] storeNames() {
        return new String[] {Records.STORE, AWAITING_ANCHOR_STORE, SummarizedRuns.STORE};
    }

    private FixedKeyProcessorContext<String, RunProgress> context;
    private Records shards;
    private KeyValueStore<String, RequestMetrics> awaiting;
    private SummarizedRuns summarized;

    @Override
    public void init(FixedKeyProcessorContext<String, RunProgress> context) {
        this.context = context;
        shards = new Records(context);
        awaiting = context.getStateStore(AWAITING_ANCHOR_STORE);
        summarized = new SummarizedRuns(context);
    }

    @Override
    public void process(FixedKeyRecord<String, Input> record) {
        if (record.value() instanceof RunProgress.ShardRecord shard) {
            shardRecord(record, shard);
        } else if (record.value() instanceof Unanchored request) {
            request(record, request.metrics());
        }
    }

    private void shardRecord(FixedKeyRecord<String, Input> record, RunProgress.ShardRecord shard) {
        RunEvent event = shard.event();
        String runId = event.getRunId();
        if (summarized(runId, "run record of shard " + event.getShardIndex())) {
            return;
        }
        shards.put(event);
        if (event.getEvent() instanceof RunStarted started) {
            RunShards.scheduleStartOnceStarted(List.copyOf(shards.of(runId).values()))
                    .ifPresent(start -> context.forward(record.withValue(new RunProgress.ScheduleStarted(start))));
            release(record, runId, event.getShardIndex(), started.getScheduleStartEpochNs());
        }
        context.forward(record.withValue(shard));
    }

    private void request(FixedKeyRecord<String, Input> record, RequestMetrics partial) {
        String runId = partial.getRunId();
        if (summarized(runId, "request " + partial.getRequestIndex())) {
            return;
        }
        OptionalLong anchor = shards.anchorOf(runId, partial.getShardIndex());
        if (anchor.isEmpty()) {
            // The shard's RunStarted travels on another topic and may not be here yet.
            awaiting.put(awaitingKey(runId, partial.getShardIndex(), partial.getRequestIndex()), partial);
            return;
        }
        anchor(record, partial, anchor.getAsLong());
    }

    /** {@code <run>/<shard>/<index>}: released by shard, in index order. */
    static String awaitingKey(String runId, int shard, int requestIndex) {
        return StoreKeys.padded(Records.shardKey(runId, shard), requestIndex, INDEX_DIGITS);
    }

    private void release(FixedKeyRecord<String, Input> cause, String runId, int shard, long anchorEpochNs) {
        List<String> released = new ArrayList<>();
        try (KeyValueIterator<String, RequestMetrics> it =
                awaiting.prefixScan(Records.shardKey(runId, shard) + "/", new StringSerializer())) {
            while (it.hasNext()) {
                var kv = it.next();
                released.add(kv.key);
                anchor(cause, kv.value, anchorEpochNs);
            }
        }
        released.forEach(awaiting::delete);
    }

    /** Passes the request on with the shard's anchor added, with the timestamp of the record that let it go. */
    private void anchor(FixedKeyRecord<String, Input> cause, RequestMetrics partial, long anchorEpochNs) {
        RequestMetrics anchored = RequestMetrics.newBuilder(partial)
                .setSentEpochNs(anchorEpochNs + partial.getSentEpochNs())
                .setFinishedEpochNs(anchorEpochNs + partial.getFinishedEpochNs())
                .build();
        context.forward(cause.withValue(new RunProgress.Anchored(anchored)));
    }

    private boolean summarized(String runId, String what) {
        if (!summarized.contains(runId)) {
            return false;
        }
        LOG.warn("run {} is already summarized; ignoring a late {}", runId, what);
        return true;
    }

    /**
     * A run's shard records, key {@code <run>/<shard>/started} and {@code <run>/<shard>/finished} (shard
     * zero-padded, so a run's records sort by shard): written by {@link ShardAnchors}, read and deleted
     * with the run by {@link RunSummarizer}.
     */
    static final class Records {
        static final String STORE = "run-events";
        private static final int SHARD_DIGITS = 5;

        private final KeyValueStore<String, RunEvent> store;

        Records(ProcessingContext context) {
            store = context.getStateStore(STORE);
        }

        /** {@code <run>/<shard>}, the shard's part of the run's keys here and in the awaiting store. */
        static String shardKey(String runId, int shard) {
            return StoreKeys.padded(runId, shard, SHARD_DIGITS);
        }

        void put(RunEvent event) {
            String shard = shardKey(event.getRunId(), event.getShardIndex());
            if (event.getEvent() instanceof RunStarted) {
                store.put(shard + "/started", event);
            } else if (event.getEvent() instanceof RunFinished) {
                store.put(shard + "/finished", event);
            }
        }

        /** The shard's schedule start (epoch ns), once its RunStarted is in. */
        OptionalLong anchorOf(String runId, int shard) {
            RunEvent started = store.get(shardKey(runId, shard) + "/started");
            return started == null
                    ? OptionalLong.empty()
                    : OptionalLong.of(((RunStarted) started.getEvent()).getScheduleStartEpochNs());
        }

        /** The run's records by key, in key order. */
        Map<String, RunEvent> of(String runId) {
            Map<String, RunEvent> events = new LinkedHashMap<>();
            try (KeyValueIterator<String, RunEvent> it = store.prefixScan(runId + "/", new StringSerializer())) {
                it.forEachRemaining(kv -> events.put(kv.key, kv.value));
            }
            return events;
        }

        void delete(Iterable<String> keys) {
            keys.forEach(store::delete);
        }
    }
}
