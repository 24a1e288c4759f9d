package io.tokenpulse.simulator.engine;

import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's one scheduler thread, started on first use so that a config that is never served
 * holds no thread. A failing task is logged and the loop goes on (a scheduled executor would
 * otherwise swallow the exception silently).
 */
final class ThreadEngineClock implements EngineClock {

    private static final Logger LOG = LoggerFactory.getLogger(ThreadEngineClock.class);
    /** Its stack traces: hidden unless --verbose (simplelogger.properties, tokenpulse.stacktraces). */
    private static final Logger TRACES =
            LoggerFactory.getLogger("tokenpulse.stacktraces." + ThreadEngineClock.class.getName());

    private ScheduledExecutorService executor;
    private boolean closed;

    @Override
    public long nowNs() {
        return System.nanoTime();
    }

    @Override
    public void schedule(Runnable task, long atNs) {
        ScheduledExecutorService timers = executor();
        if (timers == null) {
            return;
        }
        timers.schedule(
                () -> {
                    try {
                        task.run();
                    } catch (RuntimeException e) {
                        LOG.warn("simulator engine step failed: {}", e.toString());
                        TRACES.warn("simulator engine step failed", e);
                    }
                },
                atNs - System.nanoTime(),
                TimeUnit.NANOSECONDS);
    }

    private synchronized ScheduledExecutorService executor() {
        if (executor == null && !closed) {
            ScheduledThreadPoolExecutor created =
                    new ScheduledThreadPoolExecutor(1, new DefaultThreadFactory("tp-sim-engine", true));
            created.setRemoveOnCancelPolicy(true);
            executor = created;
        }
        return executor;
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (executor != null) {
            executor.shutdownNow();
        }
    }
}
