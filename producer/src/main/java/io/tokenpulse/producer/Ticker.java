package io.tokenpulse.producer;

import java.util.concurrent.locks.LockSupport;

/** The scheduler's clock: a seam so that tests can drive the schedule with a fake one. */
interface Ticker {

    /** Monotonic time in ns. */
    long nanoTime();

    /**
     * Returns at {@code deadlineNs} or soon after; at once when it has passed.
     *
     * @throws InterruptedException when the thread is or gets interrupted, even when the deadline has
     *     passed: a scheduler running behind (or at rate inf) must still stop at once
     */
    void sleepUntil(long deadlineNs) throws InterruptedException;

    /**
     * {@link System#nanoTime()} and {@link LockSupport#parkNanos}: wakes 50-100 us late on Linux,
     * which is the send-time error; spinning would be closer but burn a core the I/O threads need.
     */
    Ticker SYSTEM = new Ticker() {
        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public void sleepUntil(long deadlineNs) throws InterruptedException {
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted before the next scheduled request");
            }
            for (long leftNs = deadlineNs - System.nanoTime(); leftNs > 0; leftNs = deadlineNs - System.nanoTime()) {
                LockSupport.parkNanos(leftNs);
                if (Thread.interrupted()) {
                    throw new InterruptedException("interrupted while waiting for the next scheduled request");
                }
            }
        }
    };
}
