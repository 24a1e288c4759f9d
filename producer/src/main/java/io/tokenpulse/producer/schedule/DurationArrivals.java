package io.tokenpulse.producer.schedule;

import java.util.NoSuchElementException;
import java.util.PrimitiveIterator;

/** The lazily drawn offsets of a {@code --duration-minutes} run; see {@link ArrivalSchedule}. */
final class DurationArrivals implements PrimitiveIterator.OfLong {

    private final ArrivalSettings settings;
    private final double durationNs;
    private final GapSampler gaps;
    /** Kept in double seconds so that hours of sub-nanosecond rounding do not add up. */
    private double nextS;

    DurationArrivals(ArrivalSettings settings, long durationNs) {
        this.settings = settings;
        this.durationNs = durationNs;
        this.gaps = new GapSampler(settings.burstiness(), settings.seed());
        this.nextS = gaps.gapSeconds(settings.rateAt(0.0));
    }

    @Override
    public boolean hasNext() {
        return Math.round(nextS * 1e9) < durationNs;
    }

    @Override
    public long nextLong() {
        if (!hasNext()) {
            throw new NoSuchElementException("the duration has ended");
        }
        long offsetNs = Math.round(nextS * 1e9);
        double progress = Math.min(1.0, offsetNs / durationNs);
        nextS += gaps.gapSeconds(settings.rateAt(progress));
        return offsetNs;
    }
}
