package io.tokenpulse.producer.scrape;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads the Prometheus text format (0.0.4) and OpenMetrics text (1.0) into {@link Series}: samples
 * with their labels, histograms gathered from their {@code _bucket}, {@code _sum} and {@code _count}
 * lines. Timestamps and OpenMetrics exemplars are dropped.
 *
 * <p>Written here: the Prometheus Java client ({@code io.prometheus:prometheus-metrics-*}) only writes
 * these formats, and the parsers on Maven Central are abandoned (Hawkular's {@code prometheus-scraper},
 * last released 2017) or part of a server (Micrometer, Spring) and do not read text.
 *
 * <p>Bad input (an HTML page, garbage, a broken label) is a {@link IllegalArgumentException} naming the
 * line, so the scraper can count the scrape as failed. Stateless, thread-safe.
 */
public final class PrometheusText {

    private PrometheusText() {}

    /** Every series of {@code body}, in order of first appearance. */
    public static List<Series> parse(String body) {
        Map<String, String> types = new HashMap<>();
        List<Sample> samples = new ArrayList<>();
        String[] lines = body.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty()) {
                continue;
            }
            if (line.startsWith("#")) {
                String[] words = line.substring(1).strip().split("\\s+", 3);
                if (words.length == 3 && words[0].equals("TYPE")) {
                    types.put(words[1], words[2].strip().toLowerCase(Locale.ROOT));
                }
                continue;
            }
            try {
                samples.add(sample(line));
            } catch (IllegalArgumentException e) {
                String shown = line.length() > 80 ? line.substring(0, 80) + "..." : line;
                throw new IllegalArgumentException(
                        "line " + (i + 1) + " is not a Prometheus sample (" + e.getMessage() + "): " + shown);
            }
        }
        return gather(samples, types);
    }

    private record Sample(String name, Map<String, String> labels, double value) {}

    /** Histograms grouped by family and labels; every other sample is a series of its own. */
    private static List<Series> gather(List<Sample> samples, Map<String, String> types) {
        Map<Object, HistogramParts> histograms = new LinkedHashMap<>();
        List<Object> order = new ArrayList<>();
        for (Sample sample : samples) {
            String family = histogramFamily(sample.name, types);
            if (family == null) {
                order.add(new Series(
                        sample.name, typeOf(sample.name, types), sample.labels, sample.value, null, List.of()));
                continue;
            }
            Map<String, String> labels = new TreeMap<>(sample.labels);
            String le = labels.remove("le");
            List<Object> key = List.of(family, labels);
            HistogramParts parts = histograms.computeIfAbsent(key, k -> {
                HistogramParts created = new HistogramParts(family, labels);
                order.add(created);
                return created;
            });
            String suffix = sample.name.substring(family.length());
            switch (suffix) {
                case "_bucket" -> {
                    if (le == null) {
                        throw new IllegalArgumentException("bucket of " + family + " without le");
                    }
                    parts.buckets.add(new Series.Bucket(number(le), sample.value));
                }
                case "_sum" -> parts.sum = sample.value;
                case "_count" -> parts.count = sample.value;
                default -> {} // OpenMetrics' _created and _gsum/_gcount: not kept
            }
        }
        List<Series> series = new ArrayList<>(order.size());
        for (Object item : order) {
            series.add(item instanceof HistogramParts parts ? parts.series() : (Series) item);
        }
        return series;
    }

    private static final class HistogramParts {
        final String family;
        final Map<String, String> labels;
        final List<Series.Bucket> buckets = new ArrayList<>();
        double sum;
        Double count;

        HistogramParts(String family, Map<String, String> labels) {
            this.family = family;
            this.labels = labels;
        }

        Series series() {
            buckets.sort(Comparator.comparingDouble(Series.Bucket::le));
            return new Series(family, "histogram", labels, sum, count, buckets);
        }
    }

    /** The histogram family {@code name} belongs to, or null when it is not part of one. */
    private static String histogramFamily(String name, Map<String, String> types) {
        for (String suffix : new String[] {"_bucket", "_sum", "_count", "_created", "_gsum", "_gcount"}) {
            if (name.endsWith(suffix)) {
                String family = name.substring(0, name.length() - suffix.length());
                String type = types.get(family);
                if ("histogram".equals(type) || "gaugehistogram".equals(type)) {
                    return family;
                }
            }
        }
        return null;
    }

    private static String typeOf(String name, Map<String, String> types) {
        String type = types.get(name);
        if (type != null) {
            return type;
        }
        for (String suffix : new String[] {"_total", "_created", "_sum", "_count"}) {
            if (name.endsWith(suffix)) {
                type = types.get(name.substring(0, name.length() - suffix.length()));
                if (type != null) {
                    return type;
                }
            }
        }
        return "untyped";
    }

    /** {@code name{labels} value [timestamp] [# exemplar]}. */
    private static Sample sample(String line) {
        int i = 0;
        int n = line.length();
        while (i < n && nameChar(line.charAt(i), i == 0)) {
            i++;
        }
        if (i == 0) {
            throw new IllegalArgumentException("no metric name");
        }
        String name = line.substring(0, i);
        Map<String, String> labels = new LinkedHashMap<>();
        if (i < n && line.charAt(i) == '{') {
            i = labels(line, i + 1, labels);
        }
        String rest = line.substring(i).strip();
        int exemplar = rest.indexOf(" #");
        if (exemplar >= 0) {
            rest = rest.substring(0, exemplar).strip();
        }
        String[] parts = rest.split("\\s+");
        if (rest.isEmpty() || parts.length > 2) {
            throw new IllegalArgumentException("expected a value and an optional timestamp");
        }
        return new Sample(name, labels, number(parts[0]));
    }

    /** Reads {@code a="x",b="y"}} from {@code i}; returns the index after the closing brace. */
    private static int labels(String line, int i, Map<String, String> labels) {
        int n = line.length();
        while (true) {
            while (i < n && line.charAt(i) == ' ') {
                i++;
            }
            if (i < n && line.charAt(i) == '}') {
                return i + 1;
            }
            int start = i;
            while (i < n && nameChar(line.charAt(i), i == start) && line.charAt(i) != ':') {
                i++;
            }
            if (i == start || i >= n || line.charAt(i) != '=' || i + 1 >= n || line.charAt(i + 1) != '"') {
                throw new IllegalArgumentException("bad label at column " + (i + 1));
            }
            String label = line.substring(start, i);
            i += 2;
            StringBuilder value = new StringBuilder();
            while (i < n && line.charAt(i) != '"') {
                char c = line.charAt(i);
                if (c == '\\' && i + 1 < n) {
                    char next = line.charAt(++i);
                    value.append(next == 'n' ? '\n' : next);
                } else {
                    value.append(c);
                }
                i++;
            }
            if (i >= n) {
                throw new IllegalArgumentException("unterminated label value");
            }
            labels.put(label, value.toString());
            i++;
            while (i < n && line.charAt(i) == ' ') {
                i++;
            }
            if (i < n && line.charAt(i) == ',') {
                i++;
            } else if (i >= n || line.charAt(i) != '}') {
                throw new IllegalArgumentException("expected , or } at column " + (i + 1));
            }
        }
    }

    private static boolean nameChar(char c, boolean first) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == ':' || !first && c >= '0' && c <= '9';
    }

    /** Go's float syntax as the formats use it: decimals, exponents, NaN, +Inf, -Inf. */
    private static double number(String text) {
        switch (text) {
            case "+Inf", "Inf", "+inf", "inf" -> {
                return Double.POSITIVE_INFINITY;
            }
            case "-Inf", "-inf" -> {
                return Double.NEGATIVE_INFINITY;
            }
            case "NaN", "nan" -> {
                return Double.NaN;
            }
            default -> {
                if (!text.matches("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?")) {
                    throw new IllegalArgumentException("not a number: " + text);
                }
                return Double.parseDouble(text);
            }
        }
    }
}
