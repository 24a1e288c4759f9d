package io.tokenpulse.producer;

import java.time.Instant;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The schedule start of one shard on both clocks: {@link System#nanoTime()} for every duration
 * (monotonic: wall time can jump during a run) and the wall clock it corresponds to, so records
 * can carry offsets from the start plus one epoch anchor (RunStarted.schedule_start_epoch_ns).
 *
 * @param startNs {@link System#nanoTime()} at the schedule start
 * @param startEpochNs wall clock at the same instant, ns since the Unix epoch
 */
record Anchor(long startNs, long startEpochNs) {

    /** Pairings tried; the tightest is kept. */
    static final int TRIES = 8;

    /** Takes both clocks now ({@link #of}). */
    static Anchor now() {
        return of(System::nanoTime, Instant::now);
    }

    /**
     * Pairs the clocks: the wall clock read between two monotonic readings, at their midpoint. Of
     * {@link #TRIES} pairings the one whose two monotonic readings lay closest: a thread preempted
     * between them (a busy host at start-up) would put every wall-clock time of the run off by up to
     * half the preemption, and the arrival times are compared with other processes' wall clocks.
     */
    static Anchor of(LongSupplier nanoTime, Supplier<Instant> wallClock) {
        Anchor best = null;
        long bestSpanNs = Long.MAX_VALUE;
        for (int i = 0; i < TRIES; i++) {
            long beforeNs = nanoTime.getAsLong();
            Instant wall = wallClock.get();
            long afterNs = nanoTime.getAsLong();
            if (afterNs - beforeNs < bestSpanNs) {
                bestSpanNs = afterNs - beforeNs;
                best = new Anchor(
                        beforeNs + (afterNs - beforeNs) / 2, wall.getEpochSecond() * 1_000_000_000L + wall.getNano());
            }
        }
        return best;
    }

    /** ns after the schedule start of the monotonic time {@code ns}. */
    long offsetNs(long ns) {
        return ns - startNs;
    }

    /** Wall clock of the monotonic time {@code ns}, ns since the epoch. */
    long epochNs(long ns) {
        return startEpochNs + (ns - startNs);
    }
}
