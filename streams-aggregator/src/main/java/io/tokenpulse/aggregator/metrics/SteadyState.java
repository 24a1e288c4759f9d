package io.tokenpulse.aggregator.metrics;

import java.util.Arrays;
import java.util.Optional;

/**
 * The run's steady plateau: the stretch of time in which the number of successful requests in flight
 * stayed within a band below its peak, so that ramp-up and drain are left out of throughput and latency.
 *
 * <p>The rule (docs/metrics.md, steady state): a request is in flight from its send to its last event.
 * The plateau level {@code P} is the highest in-flight count that the run held (that count or more) for
 * at least 10 % of the time from its first send to its last end, so a brief spike does not set it; the
 * band is {@code [ceil(0.9 P), P]} and above.
 * The plateau starts the first time the count enters the band and ends the last time it leaves it
 * (the count may dip below the band in between: that is load the plateau still carried). Ends are
 * counted before sends at the same instant, so a request that takes the slot another one just freed
 * does not make a peak that never was. Pure; times are nanoseconds of one clock.
 *
 * @param startNs  the first time the in-flight count reached {@code bandFloor}
 * @param endNs    the last time it fell below {@code bandFloor}
 * @param plateau  the plateau level {@code P}
 * @param bandFloor {@code ceil(0.9 P)}
 */
public record SteadyState(long startNs, long endNs, long plateau, long bandFloor) {

    /** The band's lower edge as a share of the plateau level. */
    public static final double BAND = 0.9;

    /** The share of the run's span the plateau level must be held for (at or above it). */
    public static final double HELD = 0.1;

    public SteadyState {
        if (endNs < startNs || plateau < 1 || bandFloor < 1 || bandFloor > plateau) {
            throw new IllegalArgumentException("need startNs <= endNs and 1 <= bandFloor <= plateau, got [" + startNs
                    + ", " + endNs + "], floor " + bandFloor + ", plateau " + plateau);
        }
    }

    /**
     * The plateau of requests sent at {@code sentNs[i]} whose last event came at {@code lastNs[i]}; empty
     * when there are none, or when the plateau has no length (every request in the band at one instant).
     */
    public static Optional<SteadyState> of(long[] sentNs, long[] lastNs) {
        int n = sentNs.length;
        if (n != lastNs.length) {
            throw new IllegalArgumentException("one last time per send, got " + n + " and " + lastNs.length);
        }
        if (n == 0) {
            return Optional.empty();
        }
        // each change packed as (time, kind): kind 0 = an end, 1 = a send, so ends sort first at a tie
        long[][] changes = new long[2 * n][];
        for (int i = 0; i < n; i++) {
            changes[2 * i] = new long[] {sentNs[i], 1};
            changes[2 * i + 1] = new long[] {lastNs[i], 0};
        }
        Arrays.sort(changes, (a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        // time spent at each in-flight count, from the first send to the last end
        long[] timeAt = new long[n + 1];
        int inFlight = 0;
        int highest = 0;
        for (int i = 0; i < changes.length; i++) {
            inFlight += changes[i][1] == 1 ? 1 : -1;
            highest = Math.max(highest, inFlight);
            if (i + 1 < changes.length && inFlight > 0) {
                timeAt[inFlight] += changes[i + 1][0] - changes[i][0];
            }
        }
        long span = changes[changes.length - 1][0] - changes[0][0];
        if (span <= 0 || highest < 1) {
            return Optional.empty(); // only requests that ended the instant they were sent
        }
        // the plateau level: the highest count held (at or above) for at least HELD of the span,
        // so that a brief spike above the plateau does not become it
        long peak = 0;
        long heldNs = 0;
        for (int level = highest; level >= 1 && peak == 0; level--) {
            heldNs += timeAt[level];
            if (heldNs >= HELD * span) {
                peak = level;
            }
        }
        if (peak == 0) {
            return Optional.empty();
        }
        long floor = (long) Math.ceil(BAND * peak);
        long start = Long.MIN_VALUE;
        long end = Long.MIN_VALUE;
        inFlight = 0;
        for (long[] change : changes) {
            boolean inBand = inFlight >= floor;
            inFlight += change[1] == 1 ? 1 : -1;
            if (!inBand && inFlight >= floor && start == Long.MIN_VALUE) {
                start = change[0];
            }
            if (inBand && inFlight < floor) {
                end = change[0];
            }
        }
        if (end <= start) {
            return Optional.empty();
        }
        return Optional.of(new SteadyState(start, end, peak, floor));
    }

    /** Whether a request sent at {@code sentNs} with its last event at {@code lastNs} lies wholly inside. */
    public boolean holds(long sentNs, long lastNs) {
        return sentNs >= startNs && lastNs <= endNs;
    }

    public double seconds() {
        return (endNs - startNs) / 1e9;
    }
}
