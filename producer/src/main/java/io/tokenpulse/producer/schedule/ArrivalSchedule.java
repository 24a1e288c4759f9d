package io.tokenpulse.producer.schedule;

import java.util.Arrays;
import java.util.PrimitiveIterator;

/**
 * When each request is due, as offsets in nanoseconds from the start of the schedule
 * (docs/metrics.md, arrival process). Computed before the run so that drawing random numbers never
 * delays a send; a request is due at {@code start + offset} however late the previous one was.
 *
 * <p>Two modes:
 * <ul>
 *   <li>{@link #precompute}: a fixed number of requests ({@code --num-prompts}). Each request
 *       {@code i} is preceded by a gap drawn at the rate in force for it, offsets are the
 *       cumulative gaps (so the first request waits one gap, as in vLLM), and with a constant
 *       rate they are rescaled so the last equals {@code num_prompts / rate} exactly. With a
 *       ramp-up the rate for request {@code i} is taken at progress {@code i / (n - 1)} and
 *       nothing is rescaled, as in vLLM.</li>
 *   <li>{@link #forDuration}: {@code --duration-minutes}. An endless run cannot be rescaled, so
 *       the offsets are the plain cumulative gaps, produced lazily until the duration ends. A
 *       ramp-up takes its progress from time: {@code offset / duration}.</li>
 * </ul>
 * Instances are immutable and thread-safe; the duration iterator is not thread-safe.
 */
public final class ArrivalSchedule {

    private static final double NS_PER_S = 1e9;

    private final long[] offsetsNs;

    private ArrivalSchedule(long[] offsetsNs) {
        this.offsetsNs = offsetsNs;
    }

    /**
     * Draws the offsets of {@code numPrompts} requests.
     *
     * @throws IllegalArgumentException when {@code numPrompts < 1}
     */
    public static ArrivalSchedule precompute(ArrivalSettings settings, int numPrompts) {
        if (numPrompts < 1) {
            throw new IllegalArgumentException("--num-prompts must be >= 1, got " + numPrompts);
        }
        GapSampler gaps = new GapSampler(settings.burstiness(), settings.seed());
        double[] cumulativeS = new double[numPrompts];
        double sumS = 0;
        for (int i = 0; i < numPrompts; i++) {
            double progress = (double) i / Math.max(numPrompts - 1, 1);
            sumS += gaps.gapSeconds(settings.rateAt(progress));
            cumulativeS[i] = sumS;
        }
        long[] offsetsNs = new long[numPrompts];
        boolean rescale = settings.rampUp() == null && sumS > 0;
        // Rescaling closes the 1-2 % gap between the drawn sum and num_prompts / rate, so the
        // achieved rate does not depend on the seed.
        double targetNs = rescale ? numPrompts / settings.requestRate() * NS_PER_S : sumS * NS_PER_S;
        double nsPerCumulativeS = sumS > 0 ? targetNs / sumS : 0;
        for (int i = 0; i < numPrompts; i++) {
            offsetsNs[i] = Math.round(cumulativeS[i] * nsPerCumulativeS);
        }
        // Rounding the product can miss the target by a nanosecond; the last one is exact.
        offsetsNs[numPrompts - 1] = Math.round(targetNs);
        return new ArrivalSchedule(offsetsNs);
    }

    /**
     * Offsets produced lazily, each below {@code durationNs}; {@code hasNext()} turns false at the
     * first offset that would reach the end. With {@code --request-rate inf} every offset is 0
     * and the stream never ends by itself: the sender's {@code --max-concurrency} limit paces it
     * and the sender stops at the deadline.
     *
     * @throws IllegalArgumentException when {@code durationNs <= 0}
     */
    public static PrimitiveIterator.OfLong forDuration(ArrivalSettings settings, long durationNs) {
        if (durationNs <= 0) {
            throw new IllegalArgumentException("--duration-minutes must be > 0, got " + durationNs / 60e9);
        }
        return new DurationArrivals(settings, durationNs);
    }

    /** Number of requests. */
    public int size() {
        return offsetsNs.length;
    }

    /** When request {@code index} is due, ns after the schedule start. */
    public long offsetNs(int index) {
        return offsetsNs[index];
    }

    /** A copy of all offsets, ns after the schedule start, in request order. */
    public long[] offsetsNs() {
        return offsetsNs.clone();
    }

    @Override
    public String toString() {
        return "ArrivalSchedule[size=" + offsetsNs.length + ", lastOffsetNs=" + offsetsNs[offsetsNs.length - 1] + "]";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ArrivalSchedule other && Arrays.equals(offsetsNs, other.offsetsNs);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(offsetsNs);
    }
}
