package io.tokenpulse.aggregator.topology;

import io.tokenpulse.aggregator.metrics.ServerDeltas;
import io.tokenpulse.aggregator.metrics.ServerSample;
import io.tokenpulse.aggregator.records.ServerMetricMapper;
import io.tokenpulse.schemas.avro.RunSummary;
import io.tokenpulse.schemas.avro.ServerMetric;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.processor.api.ProcessingContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * A run's scrapes of the server's {@code /metrics} (key run id, in scrape order) into what each adds
 * to its window ({@link ServerDeltas}: gauges as scraped, counters and histograms their growth since
 * the series' previous scrape), with the scrape time as the record's timestamp, so a scrape counts in
 * the window of its time. Series outside the common set add nothing here (they stay raw on the
 * topic, and go on as a {@link Scraped} without delta, which {@link ServerSection} counts). Each series'
 * last sample and each source's first scrape are kept per run, until {@link Cleanup} deletes them
 * after the run's summary.
 */
final class ServerSeries implements FixedKeyProcessor<String, ServerMetric, ServerSeries.Scraped> {
    static final String LAST_STORE = "server-series-last";
    static final String FIRST_SCRAPE_STORE = "server-first-scrapes";
    /** Summarized runs whose series state is to be deleted, with when (wall clock, epoch ms). */
    static final String DONE_STORE = "server-series-done";

    /**
     * One record of a run's scrapes, for {@link ServerSection} to count ({@code server_metric_records}), with
     * what it adds to its window and the run's section: null for a series outside the common set.
     */
    record Scraped(ServerMetric delta) implements RunProgress {}

    private FixedKeyProcessorContext<String, Scraped> context;
    private KeyValueStore<String, ServerMetric> last;
    private KeyValueStore<String, Long> firstScrapes;

    static List<StoreBuilder<?>> stores() {
        return List.of(
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(LAST_STORE),
                        Serdes.String(),
                        StoreSerdes.<ServerMetric>avro(ServerMetric.getClassSchema())),
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(FIRST_SCRAPE_STORE), Serdes.String(), Serdes.Long()),
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(DONE_STORE), Serdes.String(), Serdes.Long()));
    }

    static String[] storeNames() {
        return new String[] {LAST_STORE, FIRST_SCRAPE_STORE};
    }

    static String[] cleanupStoreNames() {
        return new String[] {LAST_STORE, FIRST_SCRAPE_STORE, DONE_STORE};
    }

    @Override
    public void init(FixedKeyProcessorContext<String, Scraped> context) {
        this.context = context;
        last = context.getStateStore(LAST_STORE);
        firstScrapes = context.getStateStore(FIRST_SCRAPE_STORE);
    }

    @Override
    public void process(FixedKeyRecord<String, ServerMetric> record) {
        ServerMetric metric = record.value();
        String runId = metric.getRunId();
        String type = metric.getType();
        new ServerDeltas(state(runId))
                .next(ServerMetricMapper.sample(metric))
                .ifPresentOrElse(
                        delta -> context.forward(
                                record.withValue(new Scraped(ServerMetricMapper.record(runId, type, delta)))
                                        .withTimestamp(delta.scrapeEpochNs() / 1_000_000)),
                        () -> context.forward(record.withValue(new Scraped(null))));
    }

    /** The run's part of the stores. */
    private ServerDeltas.State state(String runId) {
        String prefix = runId + "/";
        return new ServerDeltas.State() {
            @Override
            public ServerSample last(String seriesKey) {
                ServerMetric m = last.get(prefix + seriesKey);
                return m == null ? null : ServerMetricMapper.sample(m);
            }

            @Override
            public void putLast(String seriesKey, ServerSample sample) {
                last.put(prefix + seriesKey, ServerMetricMapper.record(runId, "", sample));
            }

            @Override
            public Long firstScrapeNs(String source) {
                return firstScrapes.get(prefix + source);
            }

            @Override
            public void putFirstScrape(String source, long scrapeEpochNs) {
                firstScrapes.put(prefix + source, scrapeEpochNs);
            }
        };
    }

    /**
     * Deletes a run's series state (tombstones on the stores' changelogs) once its summary is out and
     * {@code linger} has passed. bench takes its last scrape before RunFinished and the summary waits
     * for the records it announced, but a load generator older than that announcement scrapes once
     * more after RunFinished, and that scrape may arrive after the summary; its window still takes it
     * until the window's grace ends, so the state is kept that long (window size plus grace). A scrape
     * of the run arriving later still would start the run's state anew (its windows are closed by then).
     */
    static final class Cleanup implements FixedKeyProcessor<String, RunSummary, Void> {
        private final Duration linger;
        private ProcessingContext context;
        private KeyValueStore<String, ServerMetric> last;
        private KeyValueStore<String, Long> firstScrapes;
        private KeyValueStore<String, Long> done;

        Cleanup(Duration linger) {
            this.linger = linger;
        }

        @Override
        public void init(FixedKeyProcessorContext<String, Void> context) {
            this.context = context;
            last = context.getStateStore(LAST_STORE);
            firstScrapes = context.getStateStore(FIRST_SCRAPE_STORE);
            done = context.getStateStore(DONE_STORE);
            context.schedule(linger, PunctuationType.WALL_CLOCK_TIME, this::deleteDue);
        }

        @Override
        public void process(FixedKeyRecord<String, RunSummary> record) {
            done.put(record.key(), context.currentSystemTimeMs() + linger.toMillis());
        }

        private void deleteDue(long nowMs) {
            List<String> due = new ArrayList<>();
            try (KeyValueIterator<String, Long> runs = done.all()) {
                runs.forEachRemaining(run -> {
                    if (run.value <= nowMs) {
                        due.add(run.key);
                    }
                });
            }
            for (String runId : due) {
                deleteRun(last, runId);
                deleteRun(firstScrapes, runId);
                done.delete(runId);
            }
        }

        private static void deleteRun(KeyValueStore<String, ?> store, String runId) {
            List<String> keys = new ArrayList<>();
            try (KeyValueIterator<String, ?> entries = store.prefixScan(runId + "/", new StringSerializer())) {
                entries.forEachRemaining(entry -> keys.add(entry.key));
            }
            keys.forEach(store::delete);
        }
    }
}
