package io.tokenpulse.acceptance;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code ./tokenpulse simulate} for a test to bench against, as a user runs one beside bench: its own
 * process on a port the system picks ({@code --port 0}), returned once it printed where it serves.
 * {@link #close} stops it (SIGTERM; its shutdown hook writes the rest of a {@code --send-log}).
 */
final class LocalSimulator implements AutoCloseable {

    /** Its first line: the models, then the base URL (https with {@code --tls}). */
    static final Pattern SERVING = Pattern.compile("^Simulator serving (.+) at (https?://127\\.0\\.0\\.1:\\d+) ");

    private final Tokenpulse.Background process;
    private final String baseUrl;

    private LocalSimulator(Tokenpulse.Background process, String baseUrl) {
        this.process = process;
        this.baseUrl = baseUrl;
    }

    /** Starts {@code simulate --port 0 flags...} and returns once it serves (stopped again when it does not). */
    static LocalSimulator start(Tokenpulse tokenpulse, String... flags) throws InterruptedException {
        List<String> args = new ArrayList<>(List.of("simulate", "--port", "0"));
        args.addAll(List.of(flags));
        Tokenpulse.Background process = tokenpulse.start(args.toArray(String[]::new));
        try {
            return new LocalSimulator(
                    process, process.awaitLine(SERVING, Duration.ofSeconds(60)).group(2));
        } catch (InterruptedException | RuntimeException | AssertionError e) {
            process.close();
            throw e;
        }
    }

    /** Waits for a later line of its output (the bench command it suggests, ...). */
    Matcher awaitLine(Pattern pattern, Duration timeout) throws InterruptedException {
        return process.awaitLine(pattern, timeout);
    }

    /** Where it serves: {@code http://127.0.0.1:PORT}. */
    String baseUrl() {
        return baseUrl;
    }

    /** {@code bench --base-url URL flags...}, to add to. */
    List<String> bench(String... flags) {
        List<String> args = new ArrayList<>(List.of("bench", "--base-url", baseUrl));
        args.addAll(List.of(flags));
        return args;
    }

    @Override
    public void close() {
        process.close();
    }
}
