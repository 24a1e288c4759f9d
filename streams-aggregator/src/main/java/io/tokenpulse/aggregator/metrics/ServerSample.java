package io.tokenpulse.aggregator.metrics;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One series of one scrape of a server's {@code /metrics} (a {@code ServerMetric} record), or its
 * growth since the series' previous scrape ({@link ServerDeltas}).
 *
 * @param source        the URL scraped
 * @param scrapeEpochNs when the scrape was sent, ns since the Unix epoch
 * @param name          the sample's name, or a histogram's family name
 * @param labels        the series' labels (a histogram's without {@code le})
 * @param value         the sample's value; a histogram's {@code _sum}
 * @param count         a histogram's {@code _count}, else null
 * @param buckets       a histogram's cumulative buckets in order of {@code le}; empty for other types
 */
public record ServerSample(
        String source,
        long scrapeEpochNs,
        String name,
        Map<String, String> labels,
        double value,
        Double count,
        List<Bucket> buckets) {

    public ServerSample {
        labels = Map.copyOf(labels);
        buckets = List.copyOf(buckets);
    }

    /** A cumulative histogram bucket: {@code count} observations were at most {@code le}. */
    public record Bucket(double le, double count) {}

    /** The series within its run: source, name and labels in a fixed order. */
    public String seriesKey() {
        return source + " " + name + new TreeMap<>(labels);
    }
}
