package io.tokenpulse.producer.scrape;

import java.util.List;
import java.util.Map;

/**
 * One series of one scrape: a sample as exposed, or a whole histogram (its buckets, sum and count).
 *
 * @param name    the sample's name, or a histogram's family name (without {@code _bucket})
 * @param type    counter, gauge, histogram, summary or untyped, from {@code # TYPE}
 * @param labels  the series' labels (a histogram's without {@code le})
 * @param value   the sample's value; a histogram's {@code _sum}
 * @param count   a histogram's {@code _count}, else null
 * @param buckets a histogram's cumulative buckets in order of {@code le}; empty for other types
 */
public record Series(
        String name, String type, Map<String, String> labels, double value, Double count, List<Bucket> buckets) {

    public Series {
        labels = Map.copyOf(labels);
        buckets = List.copyOf(buckets);
    }

    /** A cumulative histogram bucket: {@code count} observations were at most {@code le}. */
    public record Bucket(double le, double count) {}
}
