package io.tokenpulse.aggregator.topology;

import io.tokenpulse.aggregator.metrics.ServerAccumulator;
import io.tokenpulse.aggregator.records.ServerMetricMapper;
import io.tokenpulse.aggregator.scoring.RunScoring;
import io.tokenpulse.aggregator.scoring.RunShards;
import io.tokenpulse.aggregator.scoring.ServerScoring;
import io.tokenpulse.schemas.avro.RequestMetrics;
import io.tokenpulse.schemas.avro.RunEvent;
import io.tokenpulse.schemas.avro.RunFinished;
import io.tokenpulse.schemas.avro.RunStarted;
import io.tokenpulse.schemas.avro.ServerMetric;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
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
 *   <li>The run's scrapes of the server's {@code /metrics} are counted, and what each adds from the
 *       run's schedule start on is summed into its server section ({@code scoring.ServerScoring}).
 *   <li>Once every shard's RunStarted and RunFinished are in, as many requests as the shards started
 *       are resolved and as many server-metrics records as they announced are counted, one
 *       RunSummary is forwarded, computed by a range scan, with the server section when the shards
 *       scraped, and the run's state is deleted; a small marker makes later duplicates of the run's
 *       records a no-op.
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
    /** Server-metrics records counted per run, against the shards' {@code server_metric_records}. */
    static final String SERVER_RECORDS_STORE = "run-server-records";
    /** The run's schedule start, once every shard's RunStarted is in: scrapes from then on count. */
    static final String SERVER_START_STORE = "run-server-starts";
    /** The run's server section so far (a {@link ServerAccumulator}), from its schedule start on. */
    static final String SERVER_SECTION_STORE = "run-server-sections";
    /** Scrape deltas that came before the run's start was known, {@code <run>/<record count>}, in order. */
    static final String SERVER_AWAITING_START_STORE = "run-server-awaiting-start";

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
                        Stores.persistentKeyValueStore(COMPLETED_STORE), Serdes.String(), Serdes.Long()),
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(SERVER_RECORDS_STORE), Serdes.String(), Serdes.Long()),
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(SERVER_START_STORE), Serdes.String(), Serdes.Long()),
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(SERVER_SECTION_STORE),
                        Serdes.String(),
                        StoreSerdes.serverAccumulator()),
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(SERVER_AWAITING_START_STORE),
                        Serdes.String(),
                        StoreSerdes.<ServerMetric>avro(ServerMetric.getClassSchema())));
    }

    static String[] storeNames() {
        return new String[] {
            RUN_EVENTS_STORE,
            AWAITING_ANCHOR_STORE,
            REQUESTS_STORE,
            REQUEST_COUNT_STORE,
            COMPLETED_STORE,
            SERVER_RECORDS_STORE,
            SERVER_START_STORE,
            SERVER_SECTION_STORE,
            SERVER_AWAITING_START_STORE
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
        KeyValueStore<String, Long> serverRecords;
        KeyValueStore<String, Long> serverStarts;
        KeyValueStore<String, ServerAccumulator> serverSections;
        KeyValueStore<String, ServerMetric> serverAwaitingStart;

        @Override
        public void init(FixedKeyProcessorContext<String, SpecificRecord> context) {
            this.context = context;
            runEvents = context.getStateStore(RUN_EVENTS_STORE);
            awaitingAnchor = context.getStateStore(AWAITING_ANCHOR_STORE);
            requests = context.getStateStore(REQUESTS_STORE);
            requestCounts = context.getStateStore(REQUEST_COUNT_STORE);
            completed = context.getStateStore(COMPLETED_STORE);
            serverRecords = context.getStateStore(SERVER_RECORDS_STORE);
            serverStarts = context.getStateStore(SERVER_START_STORE);
            serverSections = context.getStateStore(SERVER_SECTION_STORE);
            serverAwaitingStart = context.getStateStore(SERVER_AWAITING_START_STORE);
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

        /** The run's shard records, key by key. */
        final Map<String, RunEvent> runEvents(String runId) {
            Map<String, RunEvent> events = new LinkedHashMap<>();
            try (KeyValueIterator<String, RunEvent> it = runEvents.prefixScan(runId + "/", new StringSerializer())) {
                it.forEachRemaining(kv -> events.put(kv.key, kv.value));
            }
            return events;
        }

        /**
         * Forwards the run's summary and deletes its state once everything announced is in: every
         * shard's records, the requests they started and the server-metrics records they published.
         */
        final void summarizeIfComplete(FixedKeyRecord<String, ?> cause, String runId) {
            Map<String, RunEvent> events = runEvents(runId);
            Optional<RunShards> shards = RunShards.ifComplete(List.copyOf(events.values()));
            long resolvedRequests =
                    Optional.ofNullable(requestCounts.get(runId)).orElse(0L);
            if (shards.isEmpty() || resolvedRequests < shards.get().requestsStarted()) {
                return;
            }
            OptionalLong announcedScrapes = shards.get().serverMetricRecords();
            long countedScrapes = Optional.ofNullable(serverRecords.get(runId)).orElse(0L);
            if (countedScrapes < announcedScrapes.orElse(0)) {
                return;
            }
            Set<String> requestKeys = new HashSet<>();
            var summary = RunScoring.summarize(
                    runId,
                    shards.get(),
                    () -> runRequests(runId, requestKeys::add),
                    RunScoring.Options.storedIn(runId, shards.get().config()));
            ServerAccumulator section = serverSections.get(runId);
            if (announcedScrapes.isPresent() && section != null) {
                summary.setServer(ServerScoring.section(section, summary.getMetrics()));
            }
            requestKeys.forEach(requests::delete);
            events.keySet().forEach(runEvents::delete);
            requestCounts.delete(runId);
            serverRecords.delete(runId);
            serverStarts.delete(runId);
            serverSections.delete(runId);
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
                startServerSection(runId);
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

        /**
         * Once every shard started, the run's start is known: the section begins, with the scrapes that
         * came before in their order (only those from the start on count).
         */
        private void startServerSection(String runId) {
            if (serverStarts.get(runId) != null) {
                return;
            }
            OptionalLong start = RunShards.scheduleStartOnceStarted(
                    List.copyOf(runEvents(runId).values()));
            if (start.isEmpty()) {
                return;
            }
            ServerAccumulator section = new ServerAccumulator();
            List<String> released = new ArrayList<>();
            try (KeyValueIterator<String, ServerMetric> it =
                    serverAwaitingStart.prefixScan(runId + "/", new StringSerializer())) {
                it.forEachRemaining(kv -> {
                    released.add(kv.key);
                    ServerScoring.add(section, ServerMetricMapper.sample(kv.value), start.getAsLong());
                });
            }
            released.forEach(serverAwaitingStart::delete);
            serverStarts.put(runId, start.getAsLong());
            serverSections.put(runId, section);
        }
    }

    /**
     * One record of the run's scrapes of the server's {@code /metrics} (key run id), with its delta
     * ({@link ServerSeries}): counted against the shards' announcement, and its delta added to the
     * run's server section (kept in order until the run's start is known). A record of a run already
     * summarized is left to the windows: load generators older than the announcement scrape once more
     * after RunFinished.
     */
    static final class ServerSide extends Side<ServerSeries.Scraped> {
        @Override
        public void process(FixedKeyRecord<String, ServerSeries.Scraped> record) {
            String runId = record.key();
            if (completed.get(runId) != null) {
                return;
            }
            long counted = Optional.ofNullable(serverRecords.get(runId)).orElse(0L) + 1;
            serverRecords.put(runId, counted);
            ServerMetric delta = record.value().delta();
            if (delta != null) {
                Long start = serverStarts.get(runId);
                if (start == null) {
                    serverAwaitingStart.put(String.format("%s/%019d", runId, counted), delta);
                } else {
                    ServerAccumulator section = serverSections.get(runId);
                    ServerScoring.add(section, ServerMetricMapper.sample(delta), start);
                    serverSections.put(runId, section);
                }
            }
            summarizeIfComplete(record, runId);
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
