package io.tokenpulse.producer;

import java.io.PrintStream;
import java.util.Optional;

/**
 * Holds a shard's schedule until every shard of its run is ready, so that load generators started
 * separately (other processes, pods or hosts) begin their schedules together. Called once per run,
 * after the test run and the warm connections and before the schedule's start is anchored, only when
 * the run has more than one shard.
 */
@FunctionalInterface
public interface StartBarrier {

    /** No barrier: each shard starts as soon as it is ready. */
    StartBarrier NONE = (shardIndex, shardCount, out) -> Optional.empty();

    /**
     * Returns when shard {@code shardIndex} of {@code shardCount} may start its schedule.
     *
     * @param out where a line saying what it waits for goes
     * @return this shard's clock against the broker's, measured on the way, when the barrier could
     *     (it goes into the shard's RunStarted and the run's summary)
     * @throws InterruptedException when the run is stopped while it waits (nothing is published)
     * @throws RuntimeException with a one-line message when the other shards do not come in time or
     *     disagree with this one
     */
    Optional<ClockOffset> await(int shardIndex, int shardCount, PrintStream out) throws InterruptedException;
}
