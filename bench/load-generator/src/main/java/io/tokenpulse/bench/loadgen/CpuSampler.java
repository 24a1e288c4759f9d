package io.tokenpulse.bench.loadgen;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Samples CPU time every {@code periodMs}: the whole process (GC and JIT included) and the threads
 * of each named group, by thread-name prefix. Polling rather than reading once at the end because
 * the load generator's I/O threads die with its client when the run ends; a thread that dies loses
 * at most one period of CPU. Threads of no group count as "other" (broker, registry, JIT-less
 * Java threads). One sampler thread, started and stopped by the caller.
 */
final class CpuSampler implements AutoCloseable {

    /**
     * Cumulative CPU ns at one moment: this process, each group, the simulator's own process (-1
     * when it runs in this one), and the whole machine (every process, from /proc/stat; -1 when
     * unreadable), which shows how much CPU others took during a run.
     */
    record Sample(
            long atNs,
            long processCpuNs,
            Map<String, Long> groupCpuNs,
            long simulatorProcessCpuNs,
            long machineCpuNs) {}

    private final Map<String, String> groups;
    private final long periodMs;
    private final LongSupplier simulatorProcessCpuNs;
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    /** Last CPU time seen per thread id, kept after the thread died. */
    private final Map<Long, Long> lastCpuNs = new HashMap<>();

    private final Map<Long, String> groupOf = new HashMap<>();
    private final List<Sample> samples = new ArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;

    /**
     * @param groups group name by thread-name prefix (prefixes must not overlap)
     * @param simulatorProcessCpuNs cumulative CPU of the simulator's process, -1 when it is this one
     */
    CpuSampler(Map<String, String> groups, long periodMs, LongSupplier simulatorProcessCpuNs) {
        this.groups = Map.copyOf(groups);
        this.periodMs = periodMs;
        this.simulatorProcessCpuNs = simulatorProcessCpuNs;
        this.thread = new Thread(this::loop, "bench-cpu-sampler");
        this.thread.setDaemon(true);
        sample();
        thread.start();
    }

    private void loop() {
        while (running) {
            try {
                Thread.sleep(periodMs);
            } catch (InterruptedException e) {
                return;
            }
            sample();
        }
    }

    private synchronized void sample() {
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info == null) {
                continue;
            }
            long cpu = threads.getThreadCpuTime(info.getThreadId());
            if (cpu >= 0) {
                lastCpuNs.put(info.getThreadId(), cpu);
                groupOf.computeIfAbsent(info.getThreadId(), id -> groupFor(info.getThreadName()));
            }
        }
        Map<String, Long> byGroup = new HashMap<>();
        lastCpuNs.forEach((id, cpu) -> byGroup.merge(groupOf.get(id), cpu, Long::sum));
        samples.add(new Sample(
                System.nanoTime(), os.getProcessCpuTime(), byGroup, simulatorProcessCpuNs.getAsLong(), machineCpuNs()));
    }

    /** Busy time of all CPUs: the first line of /proc/stat without idle and iowait, in USER_HZ (10 ms) ticks. */
    private static long machineCpuNs() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long busyTicks = 0;
            for (int i : new int[] {1, 2, 3, 6, 7, 8}) { // user nice system irq softirq steal
                busyTicks += Long.parseLong(f[i]);
            }
            return busyTicks * 10_000_000L;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private String groupFor(String threadName) {
        for (Map.Entry<String, String> g : groups.entrySet()) {
            if (threadName.startsWith(g.getKey())) {
                return g.getValue();
            }
        }
        return "other";
    }

    /** The first sample at or after {@code ns}, or the last one. */
    synchronized Sample at(long ns) {
        for (Sample s : samples) {
            if (s.atNs() >= ns) {
                return s;
            }
        }
        return samples.get(samples.size() - 1);
    }

    /** The last sample at or before {@code ns}, or the first one. */
    synchronized Sample before(long ns) {
        Sample found = samples.get(0);
        for (Sample s : samples) {
            if (s.atNs() <= ns) {
                found = s;
            }
        }
        return found;
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.interrupt();
        thread.join();
        sample();
    }
}
