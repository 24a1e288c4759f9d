package io.tokenpulse.aggregator.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The percentiles of {@code --metric-percentiles} (vLLM's default {@code 99}), in the order given.
 * Each lies in [0, 100], the range {@code np.percentile} accepts. Immutable.
 *
 * @param percentiles the percentiles, without repeats
 */
public record MetricPercentiles(List<Double> percentiles) {

    /** vLLM's default: P99. */
    public static final MetricPercentiles DEFAULT = new MetricPercentiles(List.of(99.0));

    private static final Pattern NUMBER = Pattern.compile("[+]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?");

    public MetricPercentiles {
        percentiles = List.copyOf(percentiles);
        if (percentiles.isEmpty()) {
            throw new IllegalArgumentException("give at least one percentile in [0, 100]");
        }
        for (double p : percentiles) {
            if (!(p >= 0 && p <= 100)) {
                throw new IllegalArgumentException("percentile " + p + " is outside [0, 100]");
            }
        }
        if (percentiles.stream().distinct().count() != percentiles.size()) {
            throw new IllegalArgumentException("percentiles repeat in " + percentiles + ": give each once");
        }
    }

    /** Parses a comma-separated list such as {@code 25,50,75,99.9}. */
    public static MetricPercentiles parse(String commaSeparated) {
        List<Double> values = new ArrayList<>();
        for (String part : commaSeparated.split(",", -1)) {
            String token = part.trim();
            double p = NUMBER.matcher(token).matches() ? Double.parseDouble(token) : Double.NaN;
            if (!(p >= 0 && p <= 100)) {
                throw new IllegalArgumentException(
                        "--metric-percentiles: '" + token + "' is not a number in [0, 100]; write e.g. 50,90,99.9");
            }
            values.add(p);
        }
        try {
            return new MetricPercentiles(values);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--metric-percentiles: " + e.getMessage());
        }
    }
}
