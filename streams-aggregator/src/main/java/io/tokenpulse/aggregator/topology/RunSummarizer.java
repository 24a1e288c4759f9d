package io.tokenpulse.aggregator.topology;

import io.tokenpulse.aggregator.scoring.RunScoring;
import io.tokenpulse.aggregator.scoring.RunShards;
import io.tokenpulse.schemas.avro.RequestMetrics;
import io.tokenpulse.schemas.avro.RunEvent;
import io.tokenpulse.schemas.avro.RunSummary;
import java.util.HashSet;
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
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;

/**
 * Summarizes each run, keyed by run id: keeps its requests, and emits the run's one summary once every
 * shard finished and everything the shards announced is in.
 *
 * <ul>
 *   <li>A request on the epoch clock ({@link RunProgress.Anchored}) is kept, one entry per request
 *       ({@code <run>/<index>}; a single value holding a whole run would outgrow Kafka's 1 MB record
 *       limit on the changelog), and goes on as {@link Resolved} with its finish as the record's
 *       timestamp (event time of the windows).
 *   <li>After each record of the run ({@link RunProgress}), once every shard's RunStarted and
 *       RunFinished are in ({@link ShardAnchors.Records}), as many requests as the shards started are
 *       kept and as many server-metrics records as they announced are counted ({@link ServerSection}),
 *       one {@link Summarized} goes on, computed by a range scan, and the run's requests and shard
 *       records are deleted; a small marker ({@link SummarizedRuns}) makes later records of the run a
 *       no-op. {@link ServerSection.IntoSummary} adds the server section after this.
 * </ul>
 */
final class RunSummarizer implements FixedKeyProcessor<String, RunProgress, RunSummarizer.Output> {
    static final String REQUESTS_STORE = "run-requests";
    static final String REQUEST_COUNT_STORE = "run-request-counts";

    private static final int INDEX_DIGITS = 10;

    /** What the summarizer emits, key run id: each request as it is kept, and the run's summary once. */
    sealed interface Output permits Resolved, Summarized {}

    /** A request's metrics on the epoch clock, timestamped with its finish. */
    record Resolved(RequestMetrics metrics) implements Output {}

    /**
     * The run's summary without its server section; {@code serverScraped}: the shards announced their
     * scrape records, so the section belongs in it.
     */
    record Summarized(RunSummary summary, boolean serverScraped) implements Output {}

    private FixedKeyProcessorContext<String, Output> context;
    private ShardAnchors.Records shards;
    private KeyValueStore<String, RequestMetrics> requests;
    private KeyValueStore<String, Long> requestCounts;
    private KeyValueStore<String, Long> scrapeRecords;
    private SummarizedRuns summarized;

    static List<StoreBuilder<?>> stores() {
        return List.of(
                StoreSerdes.persistent(
                        REQUESTS_STORE, StoreSerdes.<RequestMetrics>avro(RequestMetrics.getClassSchema())),
                StoreSerdes.persistent(REQUEST_COUNT_STORE, Serdes.Long()),
                StoreSerdes.persistent(SummarizedRuns.STORE, Serdes.Long()));
    }

    /** Its own stores, and the shard records and scrape counts it reads (and deletes the records of). */
    static String[] storeNames() {
        return new String[] {
            REQUESTS_STORE,
            REQUEST_COUNT_STORE,
            SummarizedRuns.STORE,
            ShardAnchors.Records.STORE,
            ServerSection.RECORDS_STORE
        };
    }

    @Override
    public void init(FixedKeyProcessorContext<String, Output> context) {
        this.context = context;
        shards = new ShardAnchors.Records(context);
        requests = context.getStateStore(REQUESTS_STORE);
        requestCounts = context.getStateStore(REQUEST_COUNT_STORE);
        scrapeRecords = context.getStateStore(ServerSection.RECORDS_STORE);
        summarized = new SummarizedRuns(context);
    }

    @Override
    public void process(FixedKeyRecord<String, RunProgress> record) {
        String runId = record.key();
        if (summarized.contains(runId)) {
            // passed on after the record that completed the run, in the same step (a RunStarted that
            // released the last requests); the stage drops later records of the run where they come in
            return;
        }
        if (record.value() instanceof RunProgress.Anchored anchored) {
            keep(record, anchored.metrics());
        }
        summarizeIfComplete(record, runId);
    }

    /** Keeps the request for the summary and passes it on. */
    private void keep(FixedKeyRecord<String, RunProgress> cause, RequestMetrics resolved) {
        String runId = resolved.getRunId();
        String key = requestKey(runId, resolved.getRequestIndex());
        if (requests.get(key) == null) {
            Long before = requestCounts.get(runId);
            requestCounts.put(runId, before == null ? 1 : before + 1);
        }
        // The summary needs no text; keeping it would only grow the store. The copy (all its arrays
        // boxed again) only when there is text to leave out.
        requests.put(
                key,
                resolved.getGeneratedText() == null
                        ? resolved
                        : RequestMetrics.newBuilder(resolved)
                                .setGeneratedText(null)
                                .build());
        context.forward(
                cause.withValue(new Resolved(resolved)).withTimestamp(resolved.getFinishedEpochNs() / 1_000_000));
    }

    /**
     * Passes the run's summary on and deletes its state once everything announced is in: every
     * shard's records, the requests they started and the server-metrics records they published.
     */
    private void summarizeIfComplete(FixedKeyRecord<String, RunProgress> cause, String runId) {
        Map<String, RunEvent> events = shards.of(runId);
        Optional<RunShards> complete = RunShards.ifComplete(List.copyOf(events.values()));
        long resolvedRequests = Optional.ofNullable(requestCounts.get(runId)).orElse(0L);
        if (complete.isEmpty() || resolvedRequests < complete.get().requestsStarted()) {
            return;
        }
        OptionalLong announcedScrapes = complete.get().serverMetricRecords();
        if (ServerSection.counted(scrapeRecords, runId) < announcedScrapes.orElse(0)) {
            return;
        }
        Set<String> requestKeys = new HashSet<>();
        RunSummary summary = RunScoring.summarize(
                runId,
                complete.get(),
                () -> runRequests(runId, requestKeys::add),
                RunScoring.Options.storedIn(runId, complete.get().config()));
        requestKeys.forEach(requests::delete);
        shards.delete(events.keySet());
        requestCounts.delete(runId);
        summarized.add(runId, cause.timestamp());
        context.forward(cause.withValue(new Summarized(summary, announcedScrapes.isPresent())));
    }

    /** {@code <run>/<index>}, the index zero-padded so that a run's requests sort by index. */
    static String requestKey(String runId, int requestIndex) {
        return StoreKeys.padded(runId, requestIndex, INDEX_DIGITS);
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
