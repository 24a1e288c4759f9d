package io.tokenpulse.producer.scrape;

import java.net.URI;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The run's server section from its scrapes, in {@link CommonName} terms: mean and max running and
 * waiting requests (over scrapes; several label sets or endpoints add up), peak KV cache use,
 * prefix-cache hit rate (hits / queries over the run, or the mean of an engine's rate gauge),
 * preemptions and server-side TTFT and ITL (from the histograms' growth between the first and the
 * last scrape, or from 0 for a series that appeared during the run; quantiles interpolated within buckets as Prometheus' {@code histogram_quantile} does).
 *
 * <p>Threading: fed on the scraper's thread, read after it closed; synchronized.
 */
public final class ServerSection implements ServerScraper.Listener {

    private final Map<CommonName, Gauge> gauges = new EnumMap<>(CommonName.class);
    private final Map<String, Series[]> firstAndLast = new LinkedHashMap<>();
    private final Map<String, CommonName> commonOf = new HashMap<>();
    private final Map<String, Double> scaleOf = new HashMap<>();
    private final Set<URI> scraped = new HashSet<>();

    private static final class Gauge {
        double sum;
        double max = Double.NEGATIVE_INFINITY;
        long scrapes;
    }

    @Override
    public synchronized void onScrape(URI source, long scrapeEpochNs, List<Series> series) {
        Map<CommonName, Double> scrape = new EnumMap<>(CommonName.class);
        for (Series s : series) {
            CommonName.of(s).ifPresent(mapping -> {
                switch (mapping.common()) {
                    case RUNNING, WAITING, PREFIX_CACHE_HIT_RATE ->
                        scrape.merge(mapping.common(), s.value() * mapping.scale(), Double::sum);
                    case KV_CACHE_USAGE -> scrape.merge(mapping.common(), s.value() * mapping.scale(), Math::max);
                    default -> {
                        String key = source + " " + s.name() + new TreeMap<>(s.labels());
                        // a series that appears after the endpoint's first scrape started at 0 during the run
                        firstAndLast
                                .computeIfAbsent(key, k -> new Series[] {scraped.contains(source) ? zero(s) : s, s})[
                                1] = s;
                        commonOf.put(key, mapping.common());
                        scaleOf.put(key, mapping.scale());
                    }
                }
            });
        }
        scraped.add(source);
        scrape.forEach((common, value) -> {
            Gauge gauge = gauges.computeIfAbsent(common, c -> new Gauge());
            gauge.sum += value;
            gauge.max = Math.max(gauge.max, value);
            gauge.scrapes++;
        });
    }

    /**
     * The section's result keys and values, in print order; only what the scraped engines expose
     * (empty when nothing known was scraped). Times in ms.
     */
    public synchronized Map<String, Double> values() {
        Map<String, Double> values = new LinkedHashMap<>();
        gauge(values, CommonName.RUNNING, "server_mean_running", "server_max_running");
        gauge(values, CommonName.WAITING, "server_mean_waiting", "server_max_waiting");
        Gauge kv = gauges.get(CommonName.KV_CACHE_USAGE);
        if (kv != null) {
            values.put("server_peak_kv_cache_usage", kv.max);
        }
        double queries = growth(CommonName.PREFIX_CACHE_QUERIES);
        double hits = growth(CommonName.PREFIX_CACHE_HITS);
        Gauge rate = gauges.get(CommonName.PREFIX_CACHE_HIT_RATE);
        if (queries > 0) {
            values.put("server_prefix_cache_hit_rate", hits / queries);
        } else if (rate != null) {
            values.put("server_prefix_cache_hit_rate", rate.sum / rate.scrapes);
        } else if (commonOf.containsValue(CommonName.PREFIX_CACHE_QUERIES)) {
            values.put("server_prefix_cache_hit_rate", 0.0);
        }
        if (commonOf.containsValue(CommonName.PREEMPTIONS)) {
            values.put("server_preemptions", growth(CommonName.PREEMPTIONS));
        }
        histogram(values, CommonName.SERVER_TTFT, "ttft");
        histogram(values, CommonName.SERVER_ITL, "itl");
        return values;
    }

    private void gauge(Map<String, Double> values, CommonName common, String meanKey, String maxKey) {
        Gauge gauge = gauges.get(common);
        if (gauge != null) {
            values.put(meanKey, gauge.sum / gauge.scrapes);
            values.put(maxKey, gauge.max);
        }
    }

    /** A counter's growth from the first to the last scrape, summed over its series. */
    private double growth(CommonName common) {
        double total = 0;
        for (var entry : firstAndLast.entrySet()) {
            if (commonOf.get(entry.getKey()) == common) {
                total += entry.getValue()[1].value() - entry.getValue()[0].value();
            }
        }
        return total;
    }

    /** Mean, median and P99 of what a histogram gained during the run, in ms. */
    private void histogram(Map<String, Double> values, CommonName common, String metric) {
        TreeMap<Double, Double> buckets = new TreeMap<>();
        double sum = 0;
        double count = 0;
        boolean seen = false;
        for (var entry : firstAndLast.entrySet()) {
            if (commonOf.get(entry.getKey()) != common) {
                continue;
            }
            seen = true;
            double scale = scaleOf.get(entry.getKey());
            Series first = entry.getValue()[0];
            Series last = entry.getValue()[1];
            sum += (last.value() - first.value()) * scale;
            count += (last.count() == null ? 0 : last.count()) - (first.count() == null ? 0 : first.count());
            Map<Double, Double> before = new HashMap<>();
            first.buckets().forEach(b -> before.put(b.le(), b.count()));
            for (Series.Bucket b : last.buckets()) {
                buckets.merge(b.le() * scale, b.count() - before.getOrDefault(b.le(), 0.0), Double::sum);
            }
        }
        if (!seen || count <= 0) {
            return;
        }
        values.put("server_mean_" + metric + "_ms", sum / count * 1000);
        values.put("server_median_" + metric + "_ms", quantile(buckets, count, 0.5) * 1000);
        values.put("server_p99_" + metric + "_ms", quantile(buckets, count, 0.99) * 1000);
    }

    private static Series zero(Series s) {
        return new Series(s.name(), s.type(), s.labels(), 0, s.count() == null ? null : 0.0, List.of());
    }

    /** Prometheus' histogram_quantile: linear within the bucket the rank falls in; the last finite bound for +Inf. */
    static double quantile(TreeMap<Double, Double> cumulative, double count, double q) {
        double rank = q * count;
        double lowerBound = 0;
        double lowerCount = 0;
        for (var bucket : cumulative.entrySet()) {
            double le = bucket.getKey();
            double cum = bucket.getValue();
            if (cum >= rank) {
                if (Double.isInfinite(le)) {
                    return lowerBound;
                }
                return cum == lowerCount
                        ? le
                        : lowerBound + (le - lowerBound) * (rank - lowerCount) / (cum - lowerCount);
            }
            lowerBound = le;
            lowerCount = cum;
        }
        return lowerBound;
    }
}
