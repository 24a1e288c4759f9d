package io.tokenpulse.simulator.engine;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * Real computation on the calling thread, measured in that thread's own CPU time rather than wall
 * time: when other processes take the core, the same work takes longer, as a CPU inference engine's
 * step does.
 */
final class CpuWork {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    /** Rounds of arithmetic between two reads of the thread's CPU clock (each a few microseconds). */
    private static final int ROUNDS = 4096;

    /** The work's last value, kept so that the JIT cannot drop the loop as dead code. */
    private long state = 1;

    CpuWork() {
        if (!THREADS.isCurrentThreadCpuTimeSupported()) {
            throw new IllegalArgumentException(
                    "this JVM cannot measure a thread's CPU time, which a CPU engine needs; use another profile");
        }
        THREADS.setThreadCpuTimeEnabled(true);
    }

    /** Computes until this thread has used {@code cpuNs} more of CPU time. */
    void run(long cpuNs) {
        long until = THREADS.getCurrentThreadCpuTime() + cpuNs;
        long x = state;
        while (THREADS.getCurrentThreadCpuTime() < until) {
            for (int i = 0; i < ROUNDS; i++) {
                // xorshift: a chain of dependent operations the compiler can neither skip nor vectorise
                x ^= x << 13;
                x ^= x >>> 7;
                x ^= x << 17;
            }
        }
        state = x;
    }
}
