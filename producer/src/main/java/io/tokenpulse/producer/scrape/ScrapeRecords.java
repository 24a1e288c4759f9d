package io.tokenpulse.producer.scrape;

import io.tokenpulse.schemas.avro.ServerMetric;
import io.tokenpulse.schemas.avro.ServerMetricBucket;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A {@link ServerScraper.Listener} that turns each scraped series into a {@link ServerMetric} record of
 * the run and counts them (the shard's RunFinished announces the count, so the aggregator's summary
 * can wait for them).
 */
public final class ScrapeRecords implements ServerScraper.Listener {

    private final String runId;
    private final Consumer<ServerMetric> sink;
    private final AtomicLong published = new AtomicLong();

    /** @param sink e.g. the run's {@code EventPublisher::publishServerMetric} */
    public ScrapeRecords(String runId, Consumer<ServerMetric> sink) {
        this.runId = runId;
        this.sink = sink;
    }

    @Override
    public void onScrape(URI source, long scrapeEpochNs, List<Series> series) {
        String url = source.toString();
        for (Series s : series) {
            sink.accept(ServerMetric.newBuilder()
                    .setRunId(runId)
                    .setScrapeEpochNs(scrapeEpochNs)
                    .setSource(url)
                    .setName(s.name())
                    .setType(s.type())
                    .setLabels(Map.copyOf(s.labels()))
                    .setValue(s.value())
                    .setCount(s.count())
                    .setBuckets(s.buckets().stream()
                            .map(b -> new ServerMetricBucket(b.le(), b.count()))
                            .toList())
                    .build());
            published.incrementAndGet();
        }
    }

    /** Records handed to the sink so far. */
    public long published() {
        return published.get();
    }
}
