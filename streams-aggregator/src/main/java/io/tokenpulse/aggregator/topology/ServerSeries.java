package io.tokenpulse.aggregator.topology;

import io.tokenpulse.aggregator.metrics.ServerDeltas;
import io.tokenpulse.aggregator.metrics.ServerSample;
import io.tokenpulse.aggregator.records.ServerMetricMapper;
import io.tokenpulse.schemas.avro.ServerMetric;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * A run's scrapes of the server's {@code /metrics} (key run id, in scrape order) into what each adds
 * to its window ({@link ServerDeltas}: gauges as scraped, counters and histograms their growth since
 * the series' previous scrape), with the scrape time as the record's timestamp, so a scrape counts in
 * the window of its time. Series outside the common set are dropped here (they stay raw on the
 * topic). Each series' last sample and each source's first scrape are kept per run.
 */
final class ServerSeries implements FixedKeyProcessor<String, ServerMetric, ServerMetric> {
    static final String LAST_STORE = "server-series-last";
    static final String FIRST_SCRAPE_STORE = "server-first-scrapes";

    private FixedKeyProcessorContext<String, ServerMetric> context;
    private KeyValueStore<String, ServerMetric> last;
    private KeyValueStore<String, Long> firstScrapes;

    static List<StoreBuilder<?>> stores() {
        return List.of(
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(LAST_STORE),
                        Serdes.String(),
                        StoreSerdes.<ServerMetric>avro(ServerMetric.getClassSchema())),
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore(FIRST_SCRAPE_STORE), Serdes.String(), Serdes.Long()));
    }

    static String[] storeNames() {
        return new String[] {LAST_STORE, FIRST_SCRAPE_STORE};
    }

    @Override
    public void init(FixedKeyProcessorContext<String, ServerMetric> context) {
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
                .ifPresent(delta -> context.forward(record.withValue(ServerMetricMapper.record(runId, type, delta))
                        .withTimestamp(delta.scrapeEpochNs() / 1_000_000)));
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
}
