package io.tokenpulse.simulator.engine;

/**
 * Time and timers of the batching engine's loop. The real one is System.nanoTime() and one
 * scheduler thread; tests inject a virtual clock so thousands of requests run in milliseconds.
 */
interface EngineClock {

    long nowNs();

    /** Runs {@code task} on the engine's one thread at {@code atNs} (at once when that is past). */
    void schedule(Runnable task, long atNs);

    /** Stops the timers; tasks not yet run are dropped. */
    void close();
}
