package io.tokenpulse.bench.loadgen;

import io.tokenpulse.simulator.SimulatorConfig;
import io.tokenpulse.simulator.SimulatorServer;
import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The deterministic simulator the bench streams from, with its send log: in this JVM, or in a
 * child JVM (its own heap, GC and JIT; same two cores). Across processes the send times stay
 * comparable with the client's: {@link System#nanoTime()} is {@code clock_gettime(CLOCK_MONOTONIC)}
 * on Linux/HotSpot, one clock for every process of the machine (README: how this was checked).
 */
interface SimulatorTarget extends AutoCloseable {

    URI baseUri();

    /** The send log since the last call; the simulator forgets it. */
    SendLog takeLog() throws IOException;

    /** Cumulative CPU ns of the simulator's own process, or -1 when it shares this one. */
    long processCpuNs();

    @Override
    void close() throws IOException;

    static SimulatorTarget inProcess(int events, Duration ttft, Duration gap) throws InterruptedException {
        SendLog log = new SendLog(events);
        SimulatorServer server =
                SimulatorServer.start(SimulatorConfig.deterministic(ttft, gap).withSendListener(log));
        return new SimulatorTarget() {
            @Override
            public URI baseUri() {
                return server.baseUri();
            }

            @Override
            public SendLog takeLog() {
                return log.take();
            }

            @Override
            public long processCpuNs() {
                return -1;
            }

            @Override
            public void close() {
                server.close();
            }
        };
    }

    /** Starts {@link SimulatorProcess} in a child JVM with this JVM's class path. */
    static SimulatorTarget childProcess(int events, Duration ttft, Duration gap) throws IOException {
        String javaBinary = ProcessHandle.current().info().command().orElse("java");
        Process process = new ProcessBuilder(List.of(
                        javaBinary,
                        "-cp",
                        System.getProperty("java.class.path"),
                        SimulatorProcess.class.getName(),
                        Integer.toString(events),
                        Long.toString(ttft.toNanos()),
                        Long.toString(gap.toNanos())))
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        BufferedReader replies =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        PrintStream commands = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
        String first = replies.readLine();
        if (first == null || !first.startsWith("port ")) {
            process.destroy();
            throw new IOException("the simulator process did not start: " + first);
        }
        URI base = URI.create("http://127.0.0.1:" + first.substring("port ".length()));
        return new SimulatorTarget() {
            @Override
            public URI baseUri() {
                return base;
            }

            @Override
            public SendLog takeLog() throws IOException {
                Path file = Files.createTempFile("sendlog", ".bin");
                try {
                    commands.println("dump " + file);
                    String reply = replies.readLine();
                    if (!"dumped".equals(reply)) {
                        throw new IOException("the simulator process answered '" + reply + "' to dump");
                    }
                    try (DataInputStream in =
                            new DataInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
                        return SendLog.readFrom(in);
                    }
                } finally {
                    Files.deleteIfExists(file);
                }
            }

            @Override
            public long processCpuNs() {
                return process.toHandle()
                        .info()
                        .totalCpuDuration()
                        .map(Duration::toNanos)
                        .orElse(0L);
            }

            @Override
            public void close() {
                commands.close(); // end of input: the child stops its server and exits
                try {
                    if (!process.waitFor(10, TimeUnit.SECONDS)) {
                        process.destroy();
                    }
                } catch (InterruptedException e) {
                    process.destroy();
                    Thread.currentThread().interrupt();
                }
            }
        };
    }
}
