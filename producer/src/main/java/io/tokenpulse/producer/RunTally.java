package io.tokenpulse.producer;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The run's counters and its end: how many requests started, succeeded and failed (failures by
 * reason), how many chunk records were published, when the last request finished, a future
 * that completes once sending has ended and every started request has finished, and one that
 * completes once the probes stopped and every probe has finished. Probes count in the counters
 * but not in the first future: they go on until the run's own requests ended. Only counters
 * live here, never per-request data, so a 24-hour run stays bounded.
 *
 * <p>Threading: every method may be called from any thread (the scheduler and the I/O threads).
 */
final class RunTally {

    /** Distinct failure reasons kept; servers that put request ids in errors would grow it without end. */
    static final int MAX_REASONS = 100;

    static final String OTHER_REASON = "(other reasons)";
    static final String UNFINISHED_REASON = "cancelled: the run was interrupted and the request never reported its end";

    private final LongAdder started = new LongAdder();
    private final LongAdder succeeded = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder chunks = new LongAdder();
    private final Map<String, LongAdder> reasons = new ConcurrentHashMap<>();
    private final AtomicLong lastFinishedNs = new AtomicLong(Long.MIN_VALUE);
    /** Requests not finished yet, plus one for the scheduler until it stops sending, plus one per open session. */
    private final Outstanding requests = new Outstanding();
    /** Probes not finished yet, plus one until the probes stop. */
    private final Outstanding probes = new Outstanding();

    /** A request is about to be handed to the HTTP client. */
    void requestStarted() {
        requests.add();
        started.increment();
    }

    /** A probe ({@link ProbeSender}) is about to be handed to the HTTP client. */
    void probeStarted() {
        probes.add();
        started.increment();
    }

    /** A session opened: the run is not over until it ended, even while no turn of it is in flight. */
    void sessionStarted() {
        requests.add();
    }

    /** A session sent its last turn, or stopped; call exactly once per started session, after its last turn started. */
    void sessionEnded() {
        requests.release();
    }

    void chunkPublished() {
        chunks.increment();
    }

    /** A started request ended at {@code finishedNs}; call exactly once per started request. */
    void finished(boolean success, String reason, long finishedNs) {
        count(success, reason);
        lastFinishedNs.accumulateAndGet(finishedNs, Math::max);
        requests.release();
    }

    /**
     * A started probe ended; call exactly once per started probe. It does not move {@link #lastFinishedNs}: the
     * last probe ends after the run's own last request, and probes are in none of the run's times.
     */
    void probeFinished(boolean success, String reason) {
        count(success, reason);
        probes.release();
    }

    /** No probe will start any more; call once, also when the run had none. */
    void probesStopped() {
        probes.release();
    }

    private void count(boolean success, String reason) {
        if (success) {
            succeeded.increment();
        } else {
            failed.increment();
            reasonCounter(reason).increment();
        }
    }

    /** The scheduler sent its last request. */
    void sendingEnded() {
        requests.release();
    }

    /** Completes when sending has ended and every started request (probes apart) finished. */
    CompletableFuture<Void> allFinished() {
        return requests.none;
    }

    /** Completes when the probes stopped and every started probe finished. */
    CompletableFuture<Void> probesFinished() {
        return probes.none;
    }

    /** Requests started but not finished yet. */
    long unfinished() {
        return Math.max(0, started.sum() - succeeded.sum() - failed.sum());
    }

    /**
     * The counts now. Requests that started and have not finished (only after a cancelled run gave
     * up waiting for them) count as failed under {@link #UNFINISHED_REASON}, so that
     * {@code started == succeeded + failed} always holds.
     */
    Counts counts() {
        long succeededNow = succeeded.sum();
        long failedNow = failed.sum();
        long startedNow = started.sum();
        Map<String, Long> reasonsNow = new LinkedHashMap<>();
        reasons.forEach((reason, count) -> reasonsNow.put(reason, count.sum()));
        long unfinished = Math.max(0, startedNow - succeededNow - failedNow);
        if (unfinished > 0) {
            reasonsNow.merge(UNFINISHED_REASON, unfinished, Long::sum);
        }
        return new Counts(
                succeededNow + failedNow + unfinished, succeededNow, failedNow + unfinished, chunks.sum(), reasonsNow);
    }

    /** A snapshot of the counters; {@code started == succeeded + failed}. */
    record Counts(long started, long succeeded, long failed, long chunkEvents, Map<String, Long> failureReasons) {}

    /** {@link System#nanoTime()} when the last request (probes apart) finished, or {@code fallbackNs} when none did. */
    long lastFinishedNs(long fallbackNs) {
        long last = lastFinishedNs.get();
        return last == Long.MIN_VALUE ? fallbackNs : last;
    }

    private LongAdder reasonCounter(String reason) {
        LongAdder counter = reasons.get(reason);
        if (counter != null) {
            return counter;
        }
        // A racy size check may admit a few more than MAX_REASONS: the bound only has to hold roughly.
        return reasons.computeIfAbsent(reasons.size() < MAX_REASONS ? reason : OTHER_REASON, r -> new LongAdder());
    }

    /** What is still to end, plus one held by whoever may start more; {@link #none} completes at 0. */
    private static final class Outstanding {
        private final AtomicLong count = new AtomicLong(1);
        private final CompletableFuture<Void> none = new CompletableFuture<>();

        void add() {
            count.incrementAndGet();
        }

        void release() {
            if (count.decrementAndGet() == 0) {
                none.complete(null);
            }
        }
    }
}
