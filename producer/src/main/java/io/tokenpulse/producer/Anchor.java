package io.tokenpulse.producer;

import java.time.Instant;

/**
 * The schedule start of one shard on both clocks: {@link System#nanoTime()} for every duration
 * (monotonic: wall time can jump during a run) and the wall clock it corresponds to, so records
 * can carry offsets from the start plus one epoch anchor (RunStarted.schedule_start_epoch_ns).
 *
 * @param startNs {@link System#nanoTime()} at the schedule start
 * @param startEpochNs wall clock at the same instant, ns since the Unix epoch
 */
record Anchor(long startNs, long startEpochNs) {

    /** Takes both clocks now; the monotonic reading is the midpoint of two around the wall clock read. */
    static Anchor now() {
        long beforeNs = System.nanoTime();
        Instant wall = Instant.now();
        long afterNs = System.nanoTime();
        long epochNs = wall.getEpochSecond() * 1_000_000_000L + wall.getNano();
        return new Anchor(beforeNs + (afterNs - beforeNs) / 2, epochNs);
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
