package io.tokenpulse.bench.simspeed;

import io.tokenpulse.simulator.SimulatorConfig;
import io.tokenpulse.simulator.SimulatorServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.HdrHistogram.Histogram;

/**
 * The simulator side, run in its own JVM (confined to one core by the caller): the deterministic
 * simulator on one Netty event loop with a {@link LatenessLog}. Prints {@code port <n>}, then
 * answers on stdin: {@code window} starts a measuring window (prints {@code ok}), {@code report}
 * ends it and prints {@code report <count> <window ns> <I/O thread bytes allocated> <p50> <p99>
 * <p99.9> <max> <beforeWrite p99> <max>}, lateness in ns. The window is timed here, where the log
 * is swapped: this main thread may run late when the event loop hogs the core, and the count
 * must be divided by the time it covers. Exits at the end of stdin.
 *
 * <p>Arguments: TTFT ns, gap ns, tokens per response.
 */
public final class SpeedServer {

    private SpeedServer() {}

    /** Bytes the simulator's event-loop threads allocated so far: garbage per event, whatever the load. */
    private static long ioThreadsAllocatedBytes() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long bytes = 0;
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && info.getThreadName().startsWith("tp-sim-io")) {
                bytes += threads.getThreadAllocatedBytes(info.getThreadId());
            }
        }
        return bytes;
    }

    public static void main(String[] args) throws Exception {
        LatenessLog log = new LatenessLog(Integer.parseInt(args[2]));
        SimulatorConfig config = SimulatorConfig.deterministic(
                        Duration.ofNanos(Long.parseLong(args[0])), Duration.ofNanos(Long.parseLong(args[1])))
                .withIoThreads(1)
                .withSendListener(log);
        try (SimulatorServer server = SimulatorServer.start(config)) {
            System.out.println("port " + server.port());
            System.out.flush();
            BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            long windowStartNs = System.nanoTime();
            long allocatedAtStart = ioThreadsAllocatedBytes();
            for (String line = commands.readLine(); line != null; line = commands.readLine()) {
                Histogram[] window = log.take();
                long nowNs = System.nanoTime();
                long allocated = ioThreadsAllocatedBytes();
                if (line.equals("window")) {
                    windowStartNs = nowNs;
                    allocatedAtStart = allocated;
                    System.out.println("ok");
                } else if (line.equals("report")) {
                    Histogram after = window[0];
                    Histogram before = window[1];
                    System.out.println("report " + after.getTotalCount() + " " + (nowNs - windowStartNs) + " "
                            + (allocated - allocatedAtStart) + " " + after.getValueAtPercentile(50) + " "
                            + after.getValueAtPercentile(99) + " " + after.getValueAtPercentile(99.9) + " "
                            + after.getMaxValue() + " " + before.getValueAtPercentile(99) + " " + before.getMaxValue());
                } else {
                    System.out.println("unknown command '" + line + "'; use window or report");
                }
                System.out.flush();
            }
        }
    }
}
