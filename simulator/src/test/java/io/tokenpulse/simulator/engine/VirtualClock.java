package io.tokenpulse.simulator.engine;

import java.util.PriorityQueue;

/** An {@link EngineClock} whose time only moves when the test runs the next task: no real sleeping. */
final class VirtualClock implements EngineClock {

    private record Task(long atNs, long seq, Runnable run) {}

    private final PriorityQueue<Task> tasks =
            new PriorityQueue<>((a, b) -> a.atNs != b.atNs ? Long.compare(a.atNs, b.atNs) : Long.compare(a.seq, b.seq));
    private long nowNs;
    private long seq;

    @Override
    public long nowNs() {
        return nowNs;
    }

    @Override
    public void schedule(Runnable task, long atNs) {
        tasks.add(new Task(Math.max(atNs, nowNs), seq++, task));
    }

    @Override
    public void close() {
        tasks.clear();
    }

    /** Runs tasks in time order until none is left. */
    void runUntilIdle() {
        Task task;
        while ((task = tasks.poll()) != null) {
            nowNs = task.atNs;
            task.run.run();
        }
    }
}
