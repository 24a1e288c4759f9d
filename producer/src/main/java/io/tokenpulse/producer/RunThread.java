package io.tokenpulse.producer;

/**
 * The thread running a shard and whether a stop may still interrupt it: until the shard starts
 * finishing (publishing RunFinished, which must not be cut short), a stop interrupts it; after that
 * it does nothing.
 *
 * <p>Threading: {@link #stop()} is called from whatever thread completes the stop. The run's own
 * thread takes the lock only before and after sending ({@link #finishing()}), never on the timing
 * path.
 */
final class RunThread {
    private final Thread thread;
    private boolean finishing;

    RunThread(Thread thread) {
        this.thread = thread;
    }

    synchronized void stop() {
        if (!finishing) {
            thread.interrupt();
        }
    }

    /** No stop interrupts the thread any more; one that already did is cleared (the caller ran on the thread). */
    synchronized void finishing() {
        if (!finishing) {
            finishing = true;
            if (Thread.currentThread() == thread) {
                Thread.interrupted();
            }
        }
    }
}
