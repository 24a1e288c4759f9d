package io.tokenpulse.platform.kafka;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link EmbeddedKafka} broker in a child JVM, so that it can be killed and restarted like a real
 * broker. The child runs this JVM's java and classpath; its stdout and stderr go to
 * {@code <dataDir>/kafka-child.log} (appended across restarts), never to our console.
 *
 * <p>{@link #start} returns once the child reports the broker ready. {@link #stop} (and
 * {@link #close}) shut the broker down cleanly; {@link #kill} ends the JVM at once, as a crash
 * would. If this JVM dies, the child sees its stdin close and stops by itself. Not thread-safe.
 *
 * <p>Beside its log the child leaves {@code node.pid} (its process id) and {@code node.command} (its
 * command line, one argument a line): what an operator or a fault script needs to signal one broker
 * and to start it again by hand on the same data dir and ports, with a stdin it keeps open.
 */
public final class KafkaChildProcess implements AutoCloseable {

    static final String LOG_FILE = "kafka-child.log";
    /** The child's process id, written once it runs. */
    public static final String PID_FILE = "node.pid";
    /** The child's command line, one argument a line, written before it starts. */
    public static final String COMMAND_FILE = "node.command";

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    private static final Logger log = LoggerFactory.getLogger(KafkaChildProcess.class);

    private final Process process;
    private final String bootstrapServers;
    private final Path logFile;
    private final Thread outputPump;

    private KafkaChildProcess(Process process, String bootstrapServers, Path logFile, Thread outputPump) {
        this.process = process;
        this.bootstrapServers = bootstrapServers;
        this.logFile = logFile;
        this.outputPump = outputPump;
    }

    /** Starts a child JVM running the broker and returns when it is ready for clients. */
    public static KafkaChildProcess start(KafkaSettings settings) {
        // Checked here too so that a taken port fails with the same one-line message, without a JVM start.
        if (settings.kafkaPort() != 0) {
            Ports.requireFree(settings.bindHost(), settings.kafkaPort(), "--kafka-port");
        }
        if (settings.controllerPort() != 0) {
            Ports.requireFree(BrokerConfig.CONTROLLER_HOST, settings.controllerPort(), "--controller-port");
        }
        Path logFile = settings.dataDir().resolve(LOG_FILE);
        Writer logWriter = openLog(logFile);

        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                // Kafka's own start script gives a broker 1 GiB; without a cap the child could take a quarter of RAM.
                "-Xmx1g",
                // C1 only: C2 compiling Kafka's start-up paths took about half of the start CPU (3.6 s vs
                // 1.9 s measured), and on 2 shared cores start-to-ready went from ~13 s to ~3-6 s under load.
                // C1 code is ample for a benchmark's record rates and leaves more CPU to the load generator.
                "-XX:TieredStopAtLevel=1",
                "-cp",
                absoluteClassPath(),
                KafkaChildMain.class.getName()));
        command.addAll(KafkaChildMain.toArgs(settings));
        Process process;
        try {
            Files.write(settings.dataDir().resolve(COMMAND_FILE), command, StandardCharsets.UTF_8);
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
            Files.writeString(settings.dataDir().resolve(PID_FILE), process.pid() + System.lineSeparator());
        } catch (IOException e) {
            closeQuietly(logWriter);
            throw new IllegalStateException("Cannot start the Kafka child JVM: " + e.getMessage(), e);
        }

        CompletableFuture<String> readyLine = new CompletableFuture<>();
        Thread pump = new Thread(() -> pumpOutput(process, logWriter, readyLine), "kafka-child-output");
        pump.setDaemon(true);
        pump.start();

        String line;
        String failure;
        try {
            line = readyLine.get(READY_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            failure = line == null
                    ? "it exited before it was ready"
                    : line.startsWith(KafkaChildMain.FAILED) ? line.substring(KafkaChildMain.FAILED.length()) : null;
        } catch (TimeoutException e) {
            line = null;
            failure = "not ready within " + READY_TIMEOUT.toSeconds() + " s";
        } catch (ExecutionException e) {
            line = null;
            failure = "reading its output failed: " + e.getCause().getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            line = null;
            failure = "interrupted while waiting for it";
        }
        if (failure != null) {
            process.destroyForcibly();
            throw new IllegalStateException("Kafka child JVM failed to start: " + failure + " (see " + logFile + ")");
        }
        String bootstrapServers = line.substring(KafkaChildMain.READY.length()).strip();
        log.info("Kafka child JVM {} ready at {}", process.pid(), bootstrapServers);
        return new KafkaChildProcess(process, bootstrapServers, logFile, pump);
    }

    /** {@code host:port} for the clients' {@code bootstrap.servers}. */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** Where the child's stdout and stderr go. */
    public Path logFile() {
        return logFile;
    }

    /** The child JVM's process id, for signals the API does not cover (a test's SIGTERM, SIGSTOP). */
    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /**
     * Shuts the broker down cleanly (closes the child's stdin, then SIGTERM, then SIGKILL if it hangs)
     * and returns the child's exit code, 0 after a clean stop. Does nothing more if already stopped.
     */
    public int stop() {
        try {
            OutputStream stdin = process.getOutputStream();
            stdin.close();
        } catch (IOException e) {
            log.debug("Closing the Kafka child's stdin failed; it will get SIGTERM", e);
        }
        if (!waitFor(STOP_TIMEOUT)) {
            log.warn(
                    "Kafka child JVM {} did not stop within {} s of its stdin closing; sending SIGTERM",
                    process.pid(),
                    STOP_TIMEOUT.toSeconds());
            process.destroy();
            if (!waitFor(STOP_TIMEOUT)) {
                process.destroyForcibly();
                waitFor(STOP_TIMEOUT);
            }
        }
        joinPump();
        return process.exitValue();
    }

    /** Ends the child JVM at once (SIGKILL), as a crash would, and waits until it is gone. */
    public void kill() {
        process.destroyForcibly();
        waitFor(STOP_TIMEOUT);
        joinPump();
    }

    /** Same as {@link #stop}. */
    @Override
    public void close() {
        if (process.isAlive()) {
            stop();
        }
    }

    private boolean waitFor(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private void joinPump() {
        try {
            outputPump.join(STOP_TIMEOUT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** This JVM's class path with every entry absolute: the command file must work from any directory. */
    private static String absoluteClassPath() {
        return java.util.Arrays.stream(System.getProperty("java.class.path").split(java.io.File.pathSeparator))
                .map(entry -> Path.of(entry).toAbsolutePath().toString())
                .collect(java.util.stream.Collectors.joining(java.io.File.pathSeparator));
    }

    private static Writer openLog(Path logFile) {
        try {
            Files.createDirectories(logFile.getParent());
            Writer writer = Files.newBufferedWriter(
                    logFile, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            writer.write("---- Kafka child JVM starting at " + Instant.now() + System.lineSeparator());
            writer.flush();
            return writer;
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "Cannot write the Kafka child log " + logFile + " (" + e.getMessage()
                            + "): pass a writable --data-dir",
                    e);
        }
    }

    /** Copies every child line to the log file; the first READY or FAILED line completes {@code readyLine}. */
    private static void pumpOutput(Process process, Writer logWriter, CompletableFuture<String> readyLine) {
        try (BufferedReader output =
                        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                logWriter) {
            String line;
            while ((line = output.readLine()) != null) {
                logWriter.write(line);
                logWriter.write(System.lineSeparator());
                logWriter.flush();
                if (line.startsWith(KafkaChildMain.READY) || line.startsWith(KafkaChildMain.FAILED)) {
                    readyLine.complete(line);
                }
            }
        } catch (IOException e) {
            readyLine.completeExceptionally(new UncheckedIOException(e));
        }
        // End of output before any READY line: the child has exited.
        readyLine.complete(null);
    }

    private static void closeQuietly(Writer writer) {
        try {
            writer.close();
        } catch (IOException e) {
            log.debug("Closing the Kafka child log failed", e);
        }
    }
}
