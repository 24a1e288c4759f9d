package io.tokenpulse.aggregator.topology;

import io.tokenpulse.aggregator.scoring.RunScoring;
import io.tokenpulse.aggregator.scoring.RunShards;
import io.tokenpulse.schemas.avro.RequestMetrics;
import io.tokenpulse.schemas.avro.RunEvent;
import io.tokenpulse.schemas.avro.RunFinished;
import io.tokenpulse.schemas.avro.RunStarted;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Summarizes each run, keyed by run id: re-anchors its requests' metrics on the epoch clock, keeps
 * them, and emits the run's one summary once every shard finished and every request is in.
 *
 * <ul>
 *   <li>A request's metrics arrive with times relative to its shard's schedule start; once that
 *       shard's RunStarted is known (before or after), the epoch anchor is added and the record is
 *       forwarded, with the request's finish as its timestamp (event time of the windows).
 *   <li>Resolved metrics are kept one entry per request ({@code <run>/<index>}); a single value
 *       holding a whole run would outgrow Kafka's 1 MB record limit on the changelog.
 *   <li>Once every shard's RunStarted and RunFinished are in and as many requests as the shards
 *       started are resolved, one RunSummary is forwarded, computed by a range scan, and the run's
 *       state is deleted; a small marker makes later duplicates of the run's records a no-op.
 * </ul>
 *
 * <p>Output values are {@link RequestMetrics} (key run id) or {@link io.tokenpulse.schemas.avro.RunSummary}
 * (key run id); the topology splits them.
 */
final class RunSummarizer {
    static final String RUN_EVENTS_STORE = "run-events";
    static final String AWAITING_ANCHOR_STORE = "run-requests-awaiting-anchor";
    static final String REQUESTS_STORE = "run-requests";
    static final String REQUEST_COUNT_STORE = "run-request-counts";
    static final String COMPLETED_STORE = "completed-runs";

    private static final Logger LOG = LoggerFactory.getLogger(RunSummarizer.class);

    private RunSummarizer() {}

    static List<StoreBuilder<?>> stores() {
        return List.of(
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(RUN_EVENTS_STORE),
                        Serdes.String(),
                        StoreSerdes.<RunEvent>avro(RunEvent.getClassSchema())),
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(AWAITING_ANCHOR_STORE),
                        Serdes.String(),
                        StoreSerdes.<RequestMetrics>avro(RequestMetrics.getClassSchema())),
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(REQUESTS_STORE),
                        Serdes.String(),
                        StoreSerdes.<RequestMetrics>avro(RequestMetrics.getClassSchema())),
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(REQUEST_COUNT_STORE), Serdes.String(), Serdes.Long()),
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(COMPLETED_STORE), Serdes.String(), Serdes.Long()));
    }

    static String[] storeNames() {
        return new String[] {
            RUN_EVENTS_STORE, AWAITING_ANCHOR_STORE, REQUESTS_STORE, REQUEST_COUNT_STORE, COMPLETED_STORE
        };
    }

    private static String shardPrefix(String runId, int shard) {
        return String.format("%s/%05d/", runId, shard);
    }

    private static String startedKey(String runId, int shard) {
        return shardPrefix(runId, shard) + "started";
    }

    private static String finishedKey(String runId, int shard) {
        return shardPrefix(runId, shard) + "finished";
    }

    private static String requestKey(String runId, int requestIndex) {
        return String.format("%s/%010d", runId, requestIndex);
    }

    private abstract static class Side<V> implements FixedKeyProcessor<String, V, SpecificRecord> {
        private FixedKeyProcessorContext<String, SpecificRecord> context;
        KeyValueStore<String, RunEvent> runEvents;
        KeyValueStore<String, RequestMetrics> awaitingAnchor;
        KeyValueStore<String, RequestMetrics> requests;
        KeyValueStore<String, Long> requestCounts;
        KeyValueStore<String, Long> completed;

        @Override
        public void init(FixedKeyProcessorContext<String, SpecificRecord> context) {
            this.context = context;
            runEvents = context.getStateStore(RUN_EVENTS_STORE);
            awaitingAnchor = context.getStateStore(AWAITING_ANCHOR_STORE);
            requests = context.getStateStore(REQUESTS_STORE);
            requestCounts = context.getStateStore(REQUEST_COUNT_STORE);
            completed = context.getStateStore(COMPLETED_STORE);
        }

        final boolean alreadySummarized(String runId, Object what) {
            if (completed.get(runId) == null) {
                return false;
            }
            LOG.warn("run {} is already summarized; ignoring a late {}", runId, what);
            return true;
        }

        /** Adds the shard's anchor, keeps the request for the summary, and forwards it. */
        final void resolve(FixedKeyRecord<String, ?> cause, RequestMetrics partial, long anchorEpochNs) {
            RequestMetrics resolved = RequestMetrics.newBuilder(partial)
                    .setSentEpochNs(anchorEpochNs + partial.getSentEpochNs())
                    .setFinishedEpochNs(anchorEpochNs + partial.getFinishedEpochNs())
                    .build();
            String runId = resolved.getRunId();
            String key = requestKey(runId, resolved.getRequestIndex());
            if (requests.get(key) == null) {
                Long before = requestCounts.get(runId);
                requestCounts.put(runId, before == null ? 1 : before + 1);
            }
            // The summary needs no text; keeping it would only grow the store.
            requests.put(
                    key,
                    RequestMetrics.newBuilder(resolved).setGeneratedText(null).build());
            context.forward(
                    cause.<SpecificRecord>withValue(resolved).withTimestamp(resolved.getFinishedEpochNs() / 1_000_000));
        }

        final Optional<Long> anchorOf(String runId, int shard) {
            RunEvent started = runEvents.get(startedKey(runId, shard));
            return Optional.ofNullable(started).map(e -> ((RunStarted) e.getEvent()).getScheduleStartEpochNs());
        }

        /** Forwards the run's summary and deletes its state once everything announced is in. */
        final void summarizeIfComplete(FixedKeyRecord<String, ?> cause, String runId) {
            List<RunEvent> events = new ArrayList<>();
            List<String> eventKeys = new ArrayList<>();
            try (KeyValueIterator<String, RunEvent> it = runEvents.prefixScan(runId + "/", new StringSerializer())) {
                it.forEachRemaining(kv -> {
                    eventKeys.add(kv.key);
                    events.add(kv.value);
                });
            }
            Optional<RunShards> shards = RunShards.ifComplete(events);
            long resolvedRequests =
                    Optional.ofNullable(requestCounts.get(runId)).orElse(0L);
            if (shards.isEmpty() || resolvedRequests < shards.get().requestsStarted()) {
                return;
            }
            Set<String> requestKeys = new HashSet<>();
            var summary = RunScoring.summarize(
                    runId,
                    shards.get(),
                    () -> runRequests(runId, requestKeys::add),
                    RunScoring.Options.storedIn(runId, shards.get().config()));
            requestKeys.forEach(requests::delete);
            eventKeys.forEach(runEvents::delete);
            requestCounts.delete(runId);
            completed.put(runId, cause.timestamp());
            context.forward(cause.<SpecificRecord>withValue(summary));
        }

        /** The run's stored requests, reporting each key to {@code seen}; closing the stream closes the scan. */
        private Stream<RequestMetrics> runRequests(String runId, Consumer<String> seen) {
            KeyValueIterator<String, RequestMetrics> it = requests.prefixScan(runId + "/", new StringSerializer());
            return StreamSupport.stream(Spliterators.spliteratorUnknownSize(it, Spliterator.ORDERED), false)
                    .onClose(it::close)
                    .map(kv -> {
                        seen.accept(kv.key);
                        return kv.value;
                    });
        }
    }

    /** A shard's RunStarted or RunFinished (key run id). */
    static final class RunSide extends Side<RunEvent> {
        @Override
        public void process(FixedKeyRecord<String, RunEvent> record) {
            RunEvent event = record.value();
            String runId = event.getRunId();
            if (alreadySummarized(runId, "run record of shard " + event.getShardIndex())) {
                return;
            }
            if (event.getEvent() instanceof RunStarted started) {
                runEvents.put(startedKey(runId, event.getShardIndex()), event);
                releaseAwaiting(record, runId, event.getShardIndex(), started.getScheduleStartEpochNs());
            } else if (event.getEvent() instanceof RunFinished) {
                runEvents.put(finishedKey(runId, event.getShardIndex()), event);
            }
            summarizeIfComplete(record, runId);
        }

        private void releaseAwaiting(
                FixedKeyRecord<String, RunEvent> cause, String runId, int shard, long anchorEpochNs) {
            List<String> released = new ArrayList<>();
            try (KeyValueIterator<String, RequestMetrics> it =
                    awaitingAnchor.prefixScan(shardPrefix(runId, shard), new StringSerializer())) {
                while (it.hasNext()) {
                    var kv = it.next();
                    released.add(kv.key);
                    resolve(cause, kv.value, anchorEpochNs);
                }
            }
            released.forEach(awaitingAnchor::delete);
        }
    }

    /** A request's metrics from the join, times still relative to its shard (key run id). */
    static final class RequestSide extends Side<RequestMetrics> {
        @Override
        public void process(FixedKeyRecord<String, RequestMetrics> record) {
            RequestMetrics partial = record.value();
            String runId = partial.getRunId();
            if (alreadySummarized(runId, "request " + partial.getRequestIndex())) {
                return;
            }
            Optional<Long> anchor = anchorOf(runId, partial.getShardIndex());
            if (anchor.isEmpty()) {
                // The shard's RunStarted travels on another topic and may not be here yet.
                awaitingAnchor.put(
                        shardPrefix(runId, partial.getShardIndex()) + String.format("%010d", partial.getRequestIndex()),
                        partial);
                return;
            }
            resolve(record, partial, anchor.get());
            summarizeIfComplete(record, runId);
        }
    }
}
