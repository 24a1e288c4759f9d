package io.tokenpulse.producer;

import java.util.Iterator;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Sends each planned request at {@code start + offset}, however late earlier requests are: the
 * loop never waits on a response. With {@code --max-concurrency} a request takes a permit after
 * its scheduled time (as vLLM's semaphore), so under the limit later requests queue behind it in
 * order; {@code scheduled <= permit <= sent} always holds. The request releases its permit when
 * it ends, through {@link #releasePermit()}.
 *
 * <p>Threading: {@link #run} runs on one thread (the scheduler); {@link #releasePermit()} may be
 * called from any thread.
 */
final class Dispatcher {

    /** A request whose payload is built, ready to go. */
    interface Launch {
        /**
         * Hands the request to the HTTP client; must return at once.
         *
         * @param permitNs {@link Ticker#nanoTime()} when the permit was granted, or
         *     {@link #NO_LIMIT} without {@code --max-concurrency} (the permit is then the send)
         */
        void send(long permitNs);
    }

    static final long NO_LIMIT = -1;

    private final Ticker ticker;
    private final Semaphore permits;

    /** @param maxConcurrency {@code --max-concurrency}, or null for no limit */
    Dispatcher(Ticker ticker, Integer maxConcurrency) {
        this.ticker = ticker;
        // fair: permits go out in request order, as the requests queued for them
        this.permits = maxConcurrency == null ? null : new Semaphore(maxConcurrency, true);
    }

    /**
     * Sends the plan. Each request's payload is built before its due time, so building it never
     * delays the send.
     *
     * @param startNs the schedule start on the ticker's clock
     * @param endNs nothing is sent at or after this time ({@code Long.MAX_VALUE}: no end)
     * @return requests sent
     * @throws InterruptedException when the thread is interrupted; requests sent so far stay sent
     */
    long run(long startNs, long endNs, Iterator<PlannedRequest> plan, Function<PlannedRequest, Launch> prepare)
            throws InterruptedException {
        long sent = 0;
        while (plan.hasNext()) {
            PlannedRequest request = plan.next();
            Launch launch = prepare.apply(request);
            ticker.sleepUntil(startNs + request.offsetNs());
            long permitNs = NO_LIMIT;
            if (permits != null) {
                if (!acquire(endNs)) {
                    break;
                }
                permitNs = ticker.nanoTime();
            }
            if (ticker.nanoTime() >= endNs) {
                releasePermit();
                break;
            }
            launch.send(permitNs);
            sent++;
        }
        return sent;
    }

    /** Gives back the permit of a request that ended; a no-op without a limit. */
    void releasePermit() {
        if (permits != null) {
            permits.release();
        }
    }

    private boolean acquire(long endNs) throws InterruptedException {
        if (endNs == Long.MAX_VALUE) {
            permits.acquire();
            return true;
        }
        long leftNs = endNs - ticker.nanoTime();
        return leftNs > 0 && permits.tryAcquire(leftNs, TimeUnit.NANOSECONDS);
    }
}
