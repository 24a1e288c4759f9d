package io.tokenpulse.aggregator.metrics;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The server section of a run, or of one window of it, in {@link CommonName} terms, from what
 * {@link ServerDeltas} says each scraped series adds: mean and max running and waiting requests (over
 * scrapes; the label sets of one scrape add up), peak KV cache use, prefix-cache hit rate (hits /
 * queries grown, or the mean of an engine's rate gauge), preemptions, server-side TTFT and ITL (from
 * the histograms' growth; quantiles interpolated within buckets as Prometheus' {@code
 * histogram_quantile} does) and speculative decoding's acceptance rate and length as vLLM reports
 * them. Result keys and units: docs/server-metrics.md.
 *
 * <p>Samples of one scrape come one after another (one scrape is published in order). Serializable
 * ({@link #write}, {@link #read}) for the topology's window store. Mutable, not thread-safe.
 */
public final class ServerAccumulator {

    private static final int FORMAT_VERSION = 1;

    private final Map<CommonName, Gauge> gauges = new EnumMap<>(CommonName.class);
    private final Map<CommonName, Double> growth = new EnumMap<>(CommonName.class);
    private final Map<CommonName, Histogram> histograms = new EnumMap<>(CommonName.class);

    /** A gauge over scrapes: the sum over one scrape's series, its mean and max over scrapes. */
    private static final class Gauge {
        double sum;
        double max = Double.NEGATIVE_INFINITY;
        long scrapes;
        String scrape = "";
        double current;
    }

    private static final class Histogram {
        final TreeMap<Double, Double> buckets = new TreeMap<>();
        double sum;
        double count;
    }

    /** Adds one sample as {@link ServerDeltas#next} gave it; a series outside the common set is ignored. */
    public void add(ServerSample sample) {
        CommonName.of(sample).ifPresent(mapping -> {
            CommonName common = mapping.common();
            double value = sample.value() * mapping.scale();
            switch (common) {
                case RUNNING, WAITING, PREFIX_CACHE_HIT_RATE -> gauge(common, sample, value, false);
                case KV_CACHE_USAGE -> gauge(common, sample, value, true);
                case SERVER_TTFT, SERVER_ITL -> {
                    Histogram h = histograms.computeIfAbsent(common, c -> new Histogram());
                    h.sum += value;
                    h.count += sample.count() == null ? 0 : sample.count();
                    for (ServerSample.Bucket b : sample.buckets()) {
                        h.buckets.merge(b.le() * mapping.scale(), b.count(), Double::sum);
                    }
                }
                default -> growth.merge(common, value, Double::sum);
            }
        });
    }

    private void gauge(CommonName common, ServerSample sample, double value, boolean peak) {
        Gauge gauge = gauges.computeIfAbsent(common, c -> new Gauge());
        String scrape = sample.source() + " " + sample.scrapeEpochNs();
        if (!scrape.equals(gauge.scrape)) {
            gauge.scrape = scrape;
            gauge.scrapes++;
            gauge.current = value;
            gauge.sum += value;
        } else {
            double merged = peak ? Math.max(gauge.current, value) : gauge.current + value;
            gauge.sum += merged - gauge.current;
            gauge.current = merged;
        }
        gauge.max = Math.max(gauge.max, gauge.current);
    }

    /**
     * The section's result keys and values, in print order; only what the scraped engines expose
     * (empty when nothing known was scraped). Times in ms, rates and KV use as fractions 0..1.
     */
    public Map<String, Double> values() {
        Map<String, Double> values = new LinkedHashMap<>();
        meanAndMax(values, CommonName.RUNNING, "server_mean_running", "server_max_running");
        meanAndMax(values, CommonName.WAITING, "server_mean_waiting", "server_max_waiting");
        Gauge kv = gauges.get(CommonName.KV_CACHE_USAGE);
        if (kv != null) {
            values.put("server_peak_kv_cache_usage", kv.max);
        }
        double queries = growth.getOrDefault(CommonName.PREFIX_CACHE_QUERIES, 0.0);
        Gauge rate = gauges.get(CommonName.PREFIX_CACHE_HIT_RATE);
        if (queries > 0) {
            values.put(
                    "server_prefix_cache_hit_rate", growth.getOrDefault(CommonName.PREFIX_CACHE_HITS, 0.0) / queries);
        } else if (rate != null) {
            values.put("server_prefix_cache_hit_rate", rate.sum / rate.scrapes);
        } else if (growth.containsKey(CommonName.PREFIX_CACHE_QUERIES)) {
            values.put("server_prefix_cache_hit_rate", 0.0);
        }
        if (growth.containsKey(CommonName.PREEMPTIONS)) {
            values.put("server_preemptions", growth.get(CommonName.PREEMPTIONS));
        }
        histogram(values, CommonName.SERVER_TTFT, "ttft");
        histogram(values, CommonName.SERVER_ITL, "itl");
        double accepted = growth.getOrDefault(CommonName.SPEC_DECODE_ACCEPTED_TOKENS, 0.0);
        double draftTokens = growth.getOrDefault(CommonName.SPEC_DECODE_DRAFT_TOKENS, 0.0);
        double drafts = growth.getOrDefault(CommonName.SPEC_DECODE_DRAFTS, 0.0);
        // vLLM's spec-decode log line: acceptance rate = accepted / draft tokens, mean length = 1 + accepted / drafts
        if (draftTokens > 0) {
            values.put("server_spec_decode_acceptance_rate", accepted / draftTokens);
        }
        if (drafts > 0) {
            values.put("server_spec_decode_acceptance_length", 1 + accepted / drafts);
        }
        return values;
    }

    private void meanAndMax(Map<String, Double> values, CommonName common, String meanKey, String maxKey) {
        Gauge gauge = gauges.get(common);
        if (gauge != null) {
            values.put(meanKey, gauge.sum / gauge.scrapes);
            values.put(maxKey, gauge.max);
        }
    }

    /** Mean, median and P99 of what a histogram gained, in ms. */
    private void histogram(Map<String, Double> values, CommonName common, String metric) {
        Histogram h = histograms.get(common);
        if (h == null || h.count <= 0) {
            return;
        }
        values.put("server_mean_" + metric + "_ms", h.sum / h.count * 1000);
        values.put("server_median_" + metric + "_ms", quantile(h.buckets, h.count, 0.5) * 1000);
        values.put("server_p99_" + metric + "_ms", quantile(h.buckets, h.count, 0.99) * 1000);
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

    /** Writes the state for {@link #read}. */
    public void write(DataOutputStream out) throws IOException {
        out.writeByte(FORMAT_VERSION);
        out.writeInt(gauges.size());
        for (var entry : gauges.entrySet()) {
            Gauge g = entry.getValue();
            out.writeInt(entry.getKey().ordinal());
            out.writeDouble(g.sum);
            out.writeDouble(g.max);
            out.writeLong(g.scrapes);
            out.writeUTF(g.scrape);
            out.writeDouble(g.current);
        }
        out.writeInt(growth.size());
        for (var entry : growth.entrySet()) {
            out.writeInt(entry.getKey().ordinal());
            out.writeDouble(entry.getValue());
        }
        out.writeInt(histograms.size());
        for (var entry : histograms.entrySet()) {
            Histogram h = entry.getValue();
            out.writeInt(entry.getKey().ordinal());
            out.writeDouble(h.sum);
            out.writeDouble(h.count);
            out.writeInt(h.buckets.size());
            for (var bucket : h.buckets.entrySet()) {
                out.writeDouble(bucket.getKey());
                out.writeDouble(bucket.getValue());
            }
        }
    }

    /** Reads what {@link #write} wrote. */
    public static ServerAccumulator read(DataInputStream in) throws IOException {
        int version = in.readUnsignedByte();
        if (version != FORMAT_VERSION) {
            throw new IOException("server accumulator format version " + version + ", expected " + FORMAT_VERSION);
        }
        CommonName[] names = CommonName.values();
        ServerAccumulator acc = new ServerAccumulator();
        for (int i = in.readInt(); i > 0; i--) {
            Gauge g = new Gauge();
            CommonName common = names[in.readInt()];
            g.sum = in.readDouble();
            g.max = in.readDouble();
            g.scrapes = in.readLong();
            g.scrape = in.readUTF();
            g.current = in.readDouble();
            acc.gauges.put(common, g);
        }
        for (int i = in.readInt(); i > 0; i--) {
            CommonName common = names[in.readInt()];
            acc.growth.put(common, in.readDouble());
        }
        for (int i = in.readInt(); i > 0; i--) {
            Histogram h = new Histogram();
            CommonName common = names[in.readInt()];
            h.sum = in.readDouble();
            h.count = in.readDouble();
            for (int b = in.readInt(); b > 0; b--) {
                h.buckets.put(in.readDouble(), in.readDouble());
            }
            acc.histograms.put(common, h);
        }
        return acc;
    }
}
