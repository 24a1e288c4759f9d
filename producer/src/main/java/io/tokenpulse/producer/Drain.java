package io.tokenpulse.producer;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The end of sending: waits for the requests in flight, without limit while the run is not
 * interrupted (each request has its own timeouts), and for at most the drain timeout once it is
 * (before or during the wait); then for the probes in flight once they stopped, for at most the
 * drain timeout; after a cancel, waits for the cancelled requests and probes to report their end.
 *
 * <p>Threading: the shard's own thread only, after the last send; it waits on the tally's
 * completion, which the I/O threads complete without waiting on anything.
 */
final class Drain {

    /** How long an interrupted run waits for its cancelled requests to report their end. */
    static final Duration CANCEL_TIMEOUT = Duration.ofSeconds(10);

    private static final Logger LOG = LoggerFactory.getLogger(Drain.class);

    private final RunTally tally;
    private final Duration drainTimeout;
    private final String runId;
    private boolean interrupted;

    /** @param interrupted whether sending already ended early (a stop or an interrupt) */
    Drain(RunTally tally, Duration drainTimeout, String runId, boolean interrupted) {
        this.tally = tally;
        this.drainTimeout = drainTimeout;
        this.runId = runId;
        this.interrupted = interrupted;
    }

    /** Whether the run was interrupted, before or during the wait. */
    boolean interrupted() {
        return interrupted;
    }

    /** Waits for the requests in flight to end; false when the drain timeout ran out. */
    boolean awaitInFlight() {
        long deadlineNs = interrupted ? drainStarts() : 0;
        while (true) {
            try {
                if (interrupted) {
                    tally.allFinished().get(Math.max(0, deadlineNs - System.nanoTime()), TimeUnit.NANOSECONDS);
                } else {
                    tally.allFinished().get();
                }
                return true;
            } catch (InterruptedException e) {
                if (!interrupted) {
                    interrupted = true;
                    deadlineNs = drainStarts();
                }
            } catch (TimeoutException e) {
                return false;
            } catch (ExecutionException e) {
                throw new IllegalStateException("bug: the run's completion failed", e.getCause());
            }
        }
    }

    /**
     * After the probes stopped ({@link RunTally#probesStopped}): waits for those in flight to end, for at
     * most the drain timeout (a probe asks for one token); false when the time ran out.
     */
    boolean awaitProbes() {
        return awaitAll(tally.probesFinished(), drainTimeout);
    }

    /**
     * After the requests and probes still in flight were cancelled: waits for each to report its end for at
     * most {@link #CANCEL_TIMEOUT} and warns about those that did not (counted as failed).
     */
    void awaitCancelled() {
        if (!awaitAll(CompletableFuture.allOf(tally.allFinished(), tally.probesFinished()), CANCEL_TIMEOUT)) {
            LOG.warn(
                    "run {}: {} requests did not end within {} of being cancelled; counted as failed"
                            + " without a RequestFinished record",
                    runId,
                    tally.unfinished(),
                    CANCEL_TIMEOUT);
        }
    }

    /** Says what an interrupted run does now; returns the drain's deadline. */
    private long drainStarts() {
        LOG.info(
                "run {} interrupted: no new requests; waiting up to {} s for the {} in flight",
                runId,
                drainTimeout.toSeconds(),
                tally.unfinished());
        return System.nanoTime() + drainTimeout.toNanos();
    }

    /**
     * Waits for {@code finished} (every RequestFinished it stands for), for at most {@code timeout}; an
     * interrupt meanwhile is remembered, not obeyed. False when the time ran out.
     */
    private static boolean awaitAll(CompletableFuture<Void> finished, Duration timeout) {
        long deadlineNs = System.nanoTime() + timeout.toNanos();
        boolean interruptedNow = false;
        try {
            while (true) {
                try {
                    finished.get(Math.max(0, deadlineNs - System.nanoTime()), TimeUnit.NANOSECONDS);
                    return true;
                } catch (InterruptedException e) {
                    interruptedNow = true;
                } catch (TimeoutException e) {
                    return false;
                } catch (ExecutionException e) {
                    throw new IllegalStateException("bug: the run's completion failed", e.getCause());
                }
            }
        } finally {
            if (interruptedNow) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
