package io.tokenpulse.bench.simspeed;

import io.tokenpulse.simulator.SimulatorConfig;
import io.tokenpulse.simulator.SimulatorServer;
import org.HdrHistogram.Histogram;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The simulator side, run in its own JVM (confined to one core by the caller): the deterministic
 * simulator on one Netty event loop with a {@link LatenessLog}. Prints {@code port <n>}, then
 * answers on stdin: {@code window} starts a measuring window (prints {@code ok}), {@code report}
 * ends it and prints {@code report <count> <p50> <p99> <p99.9> <max> <beforeWrite p99> <max>}
 * in ns. Exits at the end of stdin.
 *
 * <p>Arguments: TTFT ns, gap ns, tokens per response.
 */
public final class SpeedServer {

    private SpeedServer() {
    }

    public static void main(String[] args) throws Exception {
        LatenessLog log = new LatenessLog(Integer.parseInt(args[2]));
        SimulatorConfig config = SimulatorConfig.deterministic(Duration.ofNanos(Long.parseLong(args[0])),
                Duration.ofNanos(Long.parseLong(args[1]))).withIoThreads(1).withSendListener(log);
        try (SimulatorServer server = SimulatorServer.start(config)) {
            System.out.println("port " + server.port());
            System.out.flush();
            BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line = commands.readLine(); line != null; line = commands.readLine()) {
                Histogram[] window = log.take();
                if (line.equals("window")) {
                    System.out.println("ok");
                } else if (line.equals("report")) {
                    Histogram after = window[0];
                    Histogram before = window[1];
                    System.out.println("report " + after.getTotalCount() + " " + after.getValueAtPercentile(50) + " "
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
