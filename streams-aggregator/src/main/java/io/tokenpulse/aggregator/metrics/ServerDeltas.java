package io.tokenpulse.aggregator.metrics;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Turns a run's scrapes, in scrape order, into what each adds to the run: a gauge as scraped; a
 * counter or histogram its growth since the series' previous scrape. A series in the source's first
 * scrape is the baseline (it adds nothing); one that appears later counted from 0 during the run. So
 * the growths of a series add up to its last value minus its baseline, and any window of scrapes adds
 * up to what grew in it. Series not in {@link CommonName#TABLE} add nothing.
 *
 * <p>The state (each series' last sample, each source's first scrape) lives in a {@link State}: a map
 * for {@code replay}, a state store in the topology. Pure; not thread-safe.
 */
public final class ServerDeltas {

    /** Where the deltas keep what they have seen of one run. */
    public interface State {
        /** The series' last sample, or null. */
        ServerSample last(String seriesKey);

        void putLast(String seriesKey, ServerSample sample);

        /** When {@code source} was first scraped in the run, or null. */
        Long firstScrapeNs(String source);

        void putFirstScrape(String source, long scrapeEpochNs);
    }

    private final State state;

    public ServerDeltas(State state) {
        this.state = state;
    }

    /** Deltas kept in memory, for one run read back from the topic. */
    public static ServerDeltas inMemory() {
        Map<String, ServerSample> last = new HashMap<>();
        Map<String, Long> first = new HashMap<>();
        return new ServerDeltas(new State() {
            @Override
            public ServerSample last(String seriesKey) {
                return last.get(seriesKey);
            }

            @Override
            public void putLast(String seriesKey, ServerSample sample) {
                last.put(seriesKey, sample);
            }

            @Override
            public Long firstScrapeNs(String source) {
                return first.get(source);
            }

            @Override
            public void putFirstScrape(String source, long scrapeEpochNs) {
                first.put(source, scrapeEpochNs);
            }
        });
    }

    /** What {@code sample} adds to the run; empty for a series the common set does not know. */
    public Optional<ServerSample> next(ServerSample sample) {
        Long first = state.firstScrapeNs(sample.source());
        if (first == null) {
            state.putFirstScrape(sample.source(), sample.scrapeEpochNs());
            first = sample.scrapeEpochNs();
        }
        Optional<CommonName.Mapping> mapping = CommonName.of(sample);
        if (mapping.isEmpty()) {
            return Optional.empty();
        }
        if (mapping.get().common().isGauge()) {
            return Optional.of(sample);
        }
        String key = sample.seriesKey();
        ServerSample previous = state.last(key);
        state.putLast(key, sample);
        if (previous == null) {
            // the source's first scrape is the baseline; a series that appears later started at 0
            return Optional.of(sample.scrapeEpochNs() == first ? minus(sample, sample) : sample);
        }
        return Optional.of(minus(sample, previous));
    }

    private static ServerSample minus(ServerSample now, ServerSample before) {
        Map<Double, Double> earlier = new HashMap<>();
        before.buckets().forEach(b -> earlier.put(b.le(), b.count()));
        List<ServerSample.Bucket> buckets = now.buckets().stream()
                .map(b -> new ServerSample.Bucket(b.le(), b.count() - earlier.getOrDefault(b.le(), 0.0)))
                .toList();
        Double count = now.count() == null ? null : now.count() - (before.count() == null ? 0 : before.count());
        return new ServerSample(
                now.source(),
                now.scrapeEpochNs(),
                now.name(),
                now.labels(),
                now.value() - before.value(),
                count,
                buckets);
    }
}
