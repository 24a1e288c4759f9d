package io.tokenpulse.runner.sweep;

import io.tokenpulse.runner.UserError;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A server {@code sweep --serve-cmd} runs for one server setting: started with the setting's flags
 * appended, its output in a log file, ready when {@code /health} answers 200, stopped with SIGTERM
 * and, after {@link #STOP_GRACE}, SIGKILL.
 */
public final class ServedServer implements AutoCloseable {

    static final Duration STOP_GRACE = Duration.ofSeconds(10);
    static final int LOG_TAIL_LINES = 20;
    private static final Duration POLL = Duration.ofMillis(200);

    private final String command;
    private final Process process;
    private final Path log;

    private ServedServer(String command, Process process, Path log) {
        this.command = command;
        this.process = process;
        this.log = log;
    }

    /**
     * Starts {@code command} through {@code sh -c} (so the user writes it as in a shell) with {@code args}
     * appended, each one word whatever it holds.
     */
    public static ServedServer start(String command, List<String> args, Path log) throws IOException {
        List<String> argv = new ArrayList<>(List.of("sh", "-c", command + " \"$@\"", "sh"));
        argv.addAll(args);
        Process process = new ProcessBuilder(argv)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        return new ServedServer((command + " " + String.join(" ", args)).strip(), process, log);
    }

    /**
     * Waits until {@code health} answers 200; a server that exits first or is not ready within
     * {@code timeout} is a failure with one line and the last {@link #LOG_TAIL_LINES} lines of its log.
     */
    public void awaitReady(URI health, Duration timeout) throws InterruptedException {
        HttpClient client =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw failure("exited with code " + process.exitValue() + " before " + health + " answered");
            }
            try {
                HttpResponse<Void> response = client.send(
                        HttpRequest.newBuilder(health)
                                .timeout(Duration.ofSeconds(2))
                                .build(),
                        HttpResponse.BodyHandlers.discarding());
                if (response.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(POLL.toMillis());
        }
        throw failure("was not ready: " + health + " did not answer 200 within " + timeout.toSeconds()
                + " s (--ready-check-timeout-sec)");
    }

    private UserError failure(String what) {
        close();
        return UserError.failure("server '" + command + "' " + what + "; its last " + LOG_TAIL_LINES + " log lines ("
                + log + "):\n" + tail());
    }

    private String tail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size()));
        } catch (IOException e) {
            return "(log unreadable: " + e.getMessage() + ")";
        }
    }

    /**
     * SIGTERM to the shell and everything under it (the server is the shell's child, which a signal to
     * the shell alone would not reach), then SIGKILL to what is left after {@link #STOP_GRACE}.
     */
    @Override
    public void close() {
        List<ProcessHandle> children = process.descendants().toList();
        process.destroy();
        children.forEach(ProcessHandle::destroy);
        try {
            if (!process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        children.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }
}
