package io.tokenpulse.aggregator.metrics;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.regex.Pattern;

/**
 * Service level objectives of {@code --goodput ttft:MS tpot:MS e2el:MS}, in milliseconds; an absent
 * one is not checked, and with none at all goodput is off (vLLM then prints no goodput line and saves
 * {@code request_goodput: null}). Immutable.
 *
 * @see "docs/metrics.md, Run values: row request goodput"
 */
public record GoodputSlo(OptionalDouble ttftMs, OptionalDouble tpotMs, OptionalDouble e2elMs) {

    /** No SLO: goodput off. */
    public static final GoodputSlo NONE =
            new GoodputSlo(OptionalDouble.empty(), OptionalDouble.empty(), OptionalDouble.empty());

    private static final List<Metric> SLO_METRICS = List.of(Metric.TTFT, Metric.TPOT, Metric.E2EL);
    private static final double NS_PER_MS = 1e6;
    // What Python's float() reads in vLLM's parser, minus its oddities (underscores, nan).
    private static final Pattern NUMBER =
            Pattern.compile("[+-]?((\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?|inf|infinity)", Pattern.CASE_INSENSITIVE);

    public GoodputSlo {
        for (OptionalDouble slo : List.of(ttftMs, tpotMs, e2elMs)) {
            if (slo.isPresent() && !(slo.getAsDouble() >= 0)) {
                throw new IllegalArgumentException(
                        "a --goodput SLO must be a number of milliseconds >= 0, got " + slo.getAsDouble());
            }
        }
    }

    /**
     * Parses {@code --goodput} values: each element holds one or more whitespace-separated {@code KEY:MS}
     * pairs, KEY one of ttft, tpot, e2el. Bad input fails with a one-line message saying what to write.
     */
    public static GoodputSlo parse(Collection<String> pairs) {
        Map<Metric, Double> slos = new EnumMap<>(Metric.class);
        List<String> tokens = new ArrayList<>();
        for (String element : pairs) {
            for (String token : element.trim().split("\\s+")) {
                if (!token.isEmpty()) {
                    tokens.add(token);
                }
            }
        }
        for (String token : tokens) {
            String[] parts = token.split(":", -1);
            if (parts.length != 2 || !NUMBER.matcher(parts[1]).matches()) {
                throw new IllegalArgumentException(
                        "bad --goodput pair '" + token + "': write KEY:VALUE with KEY one of "
                                + Metric.keys(SLO_METRICS) + " and VALUE a number of milliseconds, e.g. ttft:500");
            }
            Metric metric = Metric.ofKey(parts[0], SLO_METRICS);
            double ms = Double.parseDouble(parts[1].replaceAll("(?i)inf(inity)?", "Infinity"));
            if (ms < 0) {
                throw new IllegalArgumentException("--goodput " + token + " is negative: an SLO must be >= 0 ms");
            }
            if (slos.put(metric, ms) != null) {
                throw new IllegalArgumentException("--goodput names " + metric.key() + " twice: give each of "
                        + Metric.keys(SLO_METRICS) + " at most once");
            }
        }
        return new GoodputSlo(of(slos.get(Metric.TTFT)), of(slos.get(Metric.TPOT)), of(slos.get(Metric.E2EL)));
    }

    /** The SLOs given with their metric keys (as RunStarted.goodput_slo_ms carries them). */
    public static GoodputSlo ofKeys(Map<String, Double> slosMs) {
        Map<Metric, Double> slos = new EnumMap<>(Metric.class);
        slosMs.forEach((key, ms) -> slos.put(Metric.ofKey(key, SLO_METRICS), ms));
        return new GoodputSlo(of(slos.get(Metric.TTFT)), of(slos.get(Metric.TPOT)), of(slos.get(Metric.E2EL)));
    }

    /** The SLOs given, metric key to ms, in TTFT, TPOT, E2EL order; empty when goodput is off. */
    public Map<String, Double> asMap() {
        Map<String, Double> slos = new java.util.LinkedHashMap<>();
        ttftMs.ifPresent(ms -> slos.put(Metric.TTFT.key(), ms));
        tpotMs.ifPresent(ms -> slos.put(Metric.TPOT.key(), ms));
        e2elMs.ifPresent(ms -> slos.put(Metric.E2EL.key(), ms));
        return slos;
    }

    private static OptionalDouble of(Double value) {
        return value == null ? OptionalDouble.empty() : OptionalDouble.of(value);
    }

    /** Whether any SLO was given, i.e. whether goodput is reported. */
    public boolean enabled() {
        return ttftMs.isPresent() || tpotMs.isPresent() || e2elMs.isPresent();
    }

    /**
     * Whether a successful request meets every SLO given: value <= SLO, with TPOT of {@code n <= 1}
     * counting as 0.
     *
     * @see "docs/metrics.md, Run values: row request goodput"
     */
    public boolean isMetBy(RequestValues request) {
        return meets(ttftMs, request.ttftNs())
                && meets(tpotMs, request.tpotForGoodputNs())
                && meets(e2elMs, request.e2elNs());
    }

    private static boolean meets(OptionalDouble sloMs, double valueNs) {
        return sloMs.isEmpty() || valueNs <= sloMs.getAsDouble() * NS_PER_MS;
    }
}
