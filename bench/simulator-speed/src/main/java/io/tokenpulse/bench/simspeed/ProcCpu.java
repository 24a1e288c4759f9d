package io.tokenpulse.bench.simspeed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * CPU time from /proc: a process's (all its threads, GC and JIT included) and one core's busy time
 * (every process on it). Both count in USER_HZ ticks, which the Linux ABI fixes at 100 per second,
 * so values are multiples of 10 ms: over a 10 s window that is ±0.001 core.
 */
final class ProcCpu {

    private static final long NS_PER_TICK = 10_000_000L;

    private ProcCpu() {}

    /** utime + stime of process {@code pid}, ns. */
    static long processNs(long pid) {
        String stat = read(Path.of("/proc", Long.toString(pid), "stat")).get(0);
        // the command name may hold spaces and parentheses: fields are counted after the last ')'
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * NS_PER_TICK; // fields 14 and 15 of proc(5)
    }

    /** Busy time of core {@code core} (user nice system irq softirq steal; not idle, not iowait), ns. */
    static long coreBusyNs(int core) {
        String prefix = "cpu" + core + " ";
        for (String line : read(Path.of("/proc/stat"))) {
            if (line.startsWith(prefix)) {
                String[] f = line.trim().split("\\s+");
                long ticks = 0;
                for (int i : new int[] {1, 2, 3, 6, 7, 8}) {
                    ticks += Long.parseLong(f[i]);
                }
                return ticks * NS_PER_TICK;
            }
        }
        throw new IllegalArgumentException("no core " + core + " in /proc/stat; use a core this machine has");
    }

    /** The 1-minute load average, as uptime prints it. */
    static String loadAverage() {
        return read(Path.of("/proc/loadavg")).get(0).split(" ")[0];
    }

    private static List<String> read(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + " (this bench needs Linux /proc)", e);
        }
    }
}
