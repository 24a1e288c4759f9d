package io.tokenpulse.bench.loadgen;

import java.time.Instant;

/**
 * The difference wall clock minus {@link System#nanoTime()}, taken the way the load generator's
 * anchor takes it (monotonic reading = midpoint of two around one wall-clock read), so that a
 * chunk's {@code arrived_epoch_ns} converts back to the {@code System.nanoTime()} its arrival was
 * stamped with: {@code arrivalNs = arrivedEpochNs - offsetNs}. The tightest of many tries wins.
 * On Linux both clocks advance at the same (NTP-disciplined) rate, so the difference changes only
 * when someone steps the wall clock; the bench takes it before and after each run and prints the
 * drift.
 */
final class WallToMonotonic {

    private WallToMonotonic() {}

    static long offsetNs() {
        long bestSpreadNs = Long.MAX_VALUE;
        long bestOffsetNs = 0;
        for (int i = 0; i < 1000; i++) {
            long beforeNs = System.nanoTime();
            Instant wall = Instant.now();
            long afterNs = System.nanoTime();
            if (afterNs - beforeNs < bestSpreadNs) {
                bestSpreadNs = afterNs - beforeNs;
                long epochNs = wall.getEpochSecond() * 1_000_000_000L + wall.getNano();
                bestOffsetNs = epochNs - (beforeNs + (afterNs - beforeNs) / 2);
            }
        }
        return bestOffsetNs;
    }
}
