package io.tokenpulse.runner.sweep;

import io.tokenpulse.aggregator.report.BenchResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code sweep --slo ttft:2000,itl:100,failures:0.01}: what a load of {@code sweep --search} must meet.
 * {@code ttft} and {@code itl} bound the P99 in ms, {@code failures} the share of failed requests
 * (failed / (completed + failed)); a key left out is not checked. A point meets the SLO when its
 * result's {@code p99_ttft_ms}, {@code p99_itl_ms} and {@code failed}/{@code completed} are within every
 * bound given.
 *
 * @param limits key ({@code ttft}, {@code itl}, {@code failures}) → bound, in the order given
 */
public record SearchSlo(Map<String, Double> limits) {

    /** The keys, and the result-file figure each bounds. */
    private static final Map<String, String> KEYS = Map.of("ttft", "p99_ttft_ms", "itl", "p99_itl_ms", "failures", "");

    public SearchSlo {
        limits = Map.copyOf(limits);
    }

    /** Parses {@code KEY:VALUE[,KEY:VALUE...]}; a mistake is an {@link IllegalArgumentException} saying what to change. */
    public static SearchSlo parse(String text) {
        Map<String, Double> limits = new LinkedHashMap<>();
        for (String pair : text.split(",", -1)) {
            String[] kv = pair.strip().split(":", -1);
            String key = kv[0].strip().toLowerCase(Locale.ROOT);
            if (!KEYS.containsKey(key)) {
                throw new IllegalArgumentException(
                        "--slo: unknown key '" + kv[0].strip()
                                + "'; use ttft and itl (P99, ms) and failures (a fraction), e.g. ttft:2000,itl:100,failures:0.01");
            }
            double value;
            try {
                value = kv.length == 2 ? Double.parseDouble(kv[1].strip()) : Double.NaN;
            } catch (NumberFormatException e) {
                value = Double.NaN;
            }
            if (!(value >= 0) || Double.isInfinite(value) || (key.equals("failures") && value > 1)) {
                throw new IllegalArgumentException("--slo: '" + pair.strip() + "' needs KEY:NUMBER, a number >= 0"
                        + (key.equals("failures") ? " and <= 1 (a fraction of requests)" : " (ms)"));
            }
            if (limits.put(key, value) != null) {
                throw new IllegalArgumentException("--slo: '" + key + "' is given twice");
            }
        }
        return new SearchSlo(new LinkedHashMap<>(limits));
    }

    /** The P99 TTFT bound in ms, if any: the live early stop watches it. */
    public Optional<Double> ttftMs() {
        return Optional.ofNullable(limits.get("ttft"));
    }

    /** The result-file figures the SLO needs, which the percentile flags must keep (p99 of ttft/itl). */
    public List<String> percentileMetrics() {
        return limits.keySet().stream()
                .filter(k -> !KEYS.get(k).isEmpty())
                .sorted()
                .toList();
    }

    /**
     * Why the point whose result is {@code result} missed the SLO, e.g. {@code P99 TTFT 2345.12 ms >
     * 2000 ms}; empty when it met every bound.
     */
    public Optional<String> miss(BenchResult result) {
        for (String key : new String[] {"ttft", "itl", "failures"}) {
            Double limit = limits.get(key);
            if (limit == null) {
                continue;
            }
            if (key.equals("failures")) {
                double failed = orZero(result.failed());
                double all = failed + orZero(result.completed());
                double share = all == 0 ? 1 : failed / all;
                if (share > limit) {
                    return Optional.of(String.format(
                            Locale.ROOT,
                            "failures %.4f > %s (%d of %d requests)",
                            share,
                            text(limit),
                            (long) failed,
                            (long) all));
                }
                continue;
            }
            double p99 =
                    key.equals("ttft") ? result.ttft().p99Ms() : result.itl().p99Ms();
            if (Double.isNaN(p99)) {
                return Optional.of("no " + KEYS.get(key) + " in the result");
            }
            if (p99 > limit) {
                return Optional.of(String.format(
                        Locale.ROOT, "P99 %s %.2f ms > %s ms", key.toUpperCase(Locale.ROOT), p99, text(limit)));
            }
        }
        return Optional.empty();
    }

    private static double orZero(double figure) {
        return Double.isNaN(figure) ? 0 : figure;
    }

    /** {@code P99 TTFT <= 2000 ms, P99 ITL <= 100 ms, failures <= 0.01}, for the summary line. */
    public String describe() {
        StringBuilder out = new StringBuilder();
        for (String key : new String[] {"ttft", "itl", "failures"}) {
            Double limit = limits.get(key);
            if (limit != null) {
                out.append(out.length() == 0 ? "" : ", ")
                        .append(
                                key.equals("failures")
                                        ? "failures <= " + text(limit)
                                        : "P99 " + key.toUpperCase(Locale.ROOT) + " <= " + text(limit) + " ms");
            }
        }
        return out.toString();
    }

    private static String text(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }
}
