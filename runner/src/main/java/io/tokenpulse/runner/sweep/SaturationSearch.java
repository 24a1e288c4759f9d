package io.tokenpulse.runner.sweep;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The loads {@code sweep --search} probes, one at a time, each decided by the previous probes'
 * verdicts (met the SLO or not). Two phases:
 * <ol>
 *   <li><b>raise</b>: {@code start}, {@code start × factor}, {@code start × factor²}, ... until a load
 *       misses the SLO;
 *   <li><b>narrow</b>: bisect between the highest load that met it below the lowest that missed it
 *       (0 when none did) and that lowest missing load, until the gap is at most 10 % of the passing
 *       load (rate) or 1 (concurrency).
 * </ol>
 * Both stop after {@code maxPoints} probes. The answer is the highest load that met the SLO below the
 * lowest that missed it (a load that met it above a miss, noise on a shared machine, does not count).
 * Concurrency loads are whole numbers; rates keep at most 3 decimals. Pure and deterministic, so a
 * resumed sweep replays the same sequence from the verdicts it stored.
 */
public final class SaturationSearch {

    /** The gap (relative to the passing load) below which a rate search stops narrowing. */
    static final double RATE_PRECISION = 0.1;

    /** One probe: its load and whether it met the SLO. */
    record Probe(double load, boolean met) {}

    private final boolean integer;
    private final double start;
    private final double factor;
    private final int maxPoints;
    private final List<Probe> probes = new ArrayList<>();

    /**
     * @param integer loads are whole numbers (a concurrency)
     * @throws IllegalArgumentException when a setting cannot give a search (one line naming its flag)
     */
    public SaturationSearch(boolean integer, double start, double factor, int maxPoints) {
        if (!(start > 0) || Double.isInfinite(start) || (integer && start != Math.rint(start))) {
            throw new IllegalArgumentException(
                    "--search-start must be a " + (integer ? "whole number" : "number") + " > 0, got " + number(start));
        }
        if (!(factor > 1) || Double.isInfinite(factor)) {
            throw new IllegalArgumentException("--search-factor must be > 1, got " + number(factor));
        }
        if (maxPoints < 1) {
            throw new IllegalArgumentException("--search-max-points must be >= 1, got " + maxPoints);
        }
        this.integer = integer;
        this.start = start;
        this.factor = factor;
        this.maxPoints = maxPoints;
    }

    /** The next load to probe; empty when the search is over. */
    public OptionalDouble next() {
        if (probes.size() >= maxPoints) {
            return OptionalDouble.empty();
        }
        if (probes.isEmpty()) {
            return OptionalDouble.of(start);
        }
        OptionalDouble missed = lowestMiss();
        if (missed.isEmpty()) {
            double last = probes.get(probes.size() - 1).load();
            double raised = round(last * factor);
            return OptionalDouble.of(raised > last ? raised : last + 1);
        }
        double high = missed.getAsDouble();
        double low = best().orElse(0.0);
        double gap = high - low;
        if (integer ? gap <= 1 : low > 0 && gap <= low * RATE_PRECISION) {
            return OptionalDouble.empty();
        }
        double mid = integer ? Math.floor((low + high) / 2) : round((low + high) / 2);
        if (mid <= low || mid >= high) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(mid);
    }

    /** Records the verdict of the load {@link #next} gave. */
    public void record(double load, boolean met) {
        probes.add(new Probe(load, met));
    }

    public List<Probe> probes() {
        return List.copyOf(probes);
    }

    /** The highest load that met the SLO below the lowest that missed it; empty when none met it. */
    public Optional<Double> best() {
        double ceiling = lowestMiss().orElse(Double.POSITIVE_INFINITY);
        return probes.stream()
                .filter(p -> p.met() && p.load() < ceiling)
                .map(Probe::load)
                .max(Double::compare);
    }

    /** The lowest load that missed the SLO, if any did. */
    public OptionalDouble lowestMiss() {
        return probes.stream().filter(p -> !p.met()).mapToDouble(Probe::load).min();
    }

    private double round(double load) {
        return integer
                ? Math.ceil(load)
                : new BigDecimal(load)
                        .setScale(3, java.math.RoundingMode.HALF_UP)
                        .doubleValue();
    }

    /** A load as a flag value: {@code 8}, {@code 1.5}. */
    public static String number(double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e15
                ? Long.toString((long) value)
                : BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }
}
