package io.tokenpulse.aggregator.topology;

import io.tokenpulse.aggregator.metrics.ServerAccumulator;
import io.tokenpulse.aggregator.records.ServerMetricMapper;
import io.tokenpulse.aggregator.scoring.ServerScoring;
import io.tokenpulse.schemas.avro.RunSummary;
import io.tokenpulse.schemas.avro.ServerMetric;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.processor.api.ProcessingContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;

/**
 * A run's server section (key run id): what its scrapes of the server's {@code /metrics} add from the
 * run's schedule start on ({@code scoring.ServerScoring}), and how many scrape records came, which
 * {@link RunSummarizer} holds against the shards' announcement ({@code server_metric_records}).
 *
 * <p>Takes each {@link ServerSeries.Scraped} (counted, and its delta added to the section, or kept in
 * order until the run's start is known) and {@link RunProgress.ScheduleStarted} (the section begins,
 * with the deltas that waited for it); passes the scrapes on, and every other record as it came. A
 * scrape of a run already summarized stops here: load generators older than the announcement scrape
 * once more after RunFinished (the windows still take it). {@link IntoSummary} puts the section into
 * the run's summary and deletes the run's part of these stores.
 */
final class ServerSection implements FixedKeyProcessor<String, RunProgress, RunProgress> {
    /** Server-metrics records counted per run, against the shards' {@code server_metric_records}. */
    static final String RECORDS_STORE = "run-server-records";
    /** The run's schedule start, once every shard's RunStarted is in: scrapes from then on count. */
    static final String START_STORE = "run-server-starts";
    /** The run's server section so far (a {@link ServerAccumulator}), from its schedule start on. */
    static final String SECTION_STORE = "run-server-sections";
    /** Scrape deltas that came before the run's start was known, {@code <run>/<record count>}, in order. */
    static final String AWAITING_START_STORE = "run-server-awaiting-start";

    private static final int COUNT_DIGITS = 19;

    static List<StoreBuilder<?>> stores() {
        return List.of(
                StoreSerdes.persistent(RECORDS_STORE, Serdes.Long()),
                StoreSerdes.persistent(START_STORE, Serdes.Long()),
                StoreSerdes.persistent(SECTION_STORE, StoreSerdes.serverAccumulator()),
                StoreSerdes.persistent(
                        AWAITING_START_STORE, StoreSerdes.<ServerMetric>avro(ServerMetric.getClassSchema())));
    }

    static String[] storeNames() {
        return new String[] {RECORDS_STORE, START_STORE, SECTION_STORE, AWAITING_START_STORE, SummarizedRuns.STORE};
    }

    private FixedKeyProcessorContext<String, RunProgress> context;
    private SummarizedRuns summarized;
    private Section state;
    private KeyValueStore<String, ServerMetric> awaitingStart;

    @Override
    public void init(FixedKeyProcessorContext<String, RunProgress> context) {
        this.context = context;
        summarized = new SummarizedRuns(context);
        state = Section.of(context);
        awaitingStart = context.getStateStore(AWAITING_START_STORE);
    }

    @Override
    public void process(FixedKeyRecord<String, RunProgress> record) {
        if (record.value() instanceof ServerSeries.Scraped scraped) {
            scraped(record, scraped.delta());
        } else if (record.value() instanceof RunProgress.ScheduleStarted start) {
            start(record.key(), start.epochNs());
        } else {
            context.forward(record);
        }
    }

    private void scraped(FixedKeyRecord<String, RunProgress> record, ServerMetric delta) {
        String runId = record.key();
        if (summarized.contains(runId)) {
            return;
        }
        long counted = counted(state.records(), runId) + 1;
        state.records().put(runId, counted);
        if (delta != null) {
            Long start = state.starts().get(runId);
            if (start == null) {
                awaitingStart.put(awaitingStartKey(runId, counted), delta);
            } else {
                ServerAccumulator section = state.sections().get(runId);
                ServerScoring.add(section, ServerMetricMapper.sample(delta), start);
                state.sections().put(runId, section);
            }
        }
        context.forward(record);
    }

    /** {@code <run>/<record count>}: the deltas that wait for the run's start, in their order. */
    static String awaitingStartKey(String runId, long counted) {
        return StoreKeys.padded(runId, counted, COUNT_DIGITS);
    }

    /** The section begins with the deltas that came before the start, in their order (only those from the start on count). */
    private void start(String runId, long startEpochNs) {
        if (state.starts().get(runId) != null) {
            return;
        }
        ServerAccumulator section = new ServerAccumulator();
        List<String> released = new ArrayList<>();
        try (KeyValueIterator<String, ServerMetric> it =
                awaitingStart.prefixScan(runId + "/", new StringSerializer())) {
            it.forEachRemaining(kv -> {
                released.add(kv.key);
                ServerScoring.add(section, ServerMetricMapper.sample(kv.value), startEpochNs);
            });
        }
        released.forEach(awaitingStart::delete);
        state.starts().put(runId, startEpochNs);
        state.sections().put(runId, section);
    }

    /** The scrape records of the run counted so far. */
    static long counted(KeyValueStore<String, Long> records, String runId) {
        return Optional.ofNullable(records.get(runId)).orElse(0L);
    }

    /** The stores both processors use: the run's scrape record count, its schedule start and its section. */
    private record Section(
            KeyValueStore<String, Long> records,
            KeyValueStore<String, Long> starts,
            KeyValueStore<String, ServerAccumulator> sections) {
        static final List<String> STORES = List.of(RECORDS_STORE, START_STORE, SECTION_STORE);

        static Section of(ProcessingContext context) {
            return new Section(
                    context.getStateStore(RECORDS_STORE),
                    context.getStateStore(START_STORE),
                    context.getStateStore(SECTION_STORE));
        }

        void delete(String runId) {
            records.delete(runId);
            starts.delete(runId);
            sections.delete(runId);
        }
    }

    /**
     * Puts the run's server section into its summary when its shards scraped, and deletes the run's
     * part of the section's stores, in the summary's transaction.
     */
    static final class IntoSummary implements FixedKeyProcessor<String, RunSummarizer.Summarized, RunSummary> {
        private FixedKeyProcessorContext<String, RunSummary> context;
        private Section state;

        /** The section's stores, nothing else: the summary carries what the summarizer knew. */
        static String[] storeNames() {
            return Section.STORES.toArray(String[]::new);
        }

        @Override
        public void init(FixedKeyProcessorContext<String, RunSummary> context) {
            this.context = context;
            state = Section.of(context);
        }

        @Override
        public void process(FixedKeyRecord<String, RunSummarizer.Summarized> record) {
            String runId = record.key();
            RunSummary summary = record.value().summary();
            ServerAccumulator section = state.sections().get(runId);
            if (record.value().serverScraped() && section != null) {
                summary.setServer(ServerScoring.section(section, summary.getMetrics()));
            }
            state.delete(runId);
            context.forward(record.withValue(summary));
        }
    }
}
