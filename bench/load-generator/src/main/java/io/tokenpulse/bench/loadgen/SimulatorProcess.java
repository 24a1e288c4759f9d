package io.tokenpulse.bench.loadgen;

import io.tokenpulse.simulator.SimulatorConfig;
import io.tokenpulse.simulator.SimulatorServer;
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.DataOutputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The child-JVM side of {@link SimulatorTarget#childProcess}: starts the deterministic simulator,
 * prints {@code port <n>}, then answers {@code dump <file>} on stdin by writing its send log to the
 * file and printing {@code dumped}. Exits at the end of stdin.
 *
 * <p>Arguments: events per request, TTFT ns, gap ns.
 */
public final class SimulatorProcess {

    private SimulatorProcess() {}

    public static void main(String[] args) throws Exception {
        SendLog log = new SendLog(Integer.parseInt(args[0]));
        SimulatorConfig config = SimulatorConfig.deterministic(
                        Duration.ofNanos(Long.parseLong(args[1])), Duration.ofNanos(Long.parseLong(args[2])))
                .withSendListener(log);
        try (SimulatorServer server = SimulatorServer.start(config)) {
            System.out.println("port " + server.port());
            System.out.flush();
            BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line = commands.readLine(); line != null; line = commands.readLine()) {
                if (line.startsWith("dump ")) {
                    try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(
                            Files.newOutputStream(Path.of(line.substring("dump ".length())))))) {
                        log.writeTo(out);
                    }
                    System.out.println("dumped");
                    System.out.flush();
                }
            }
        }
    }
}
