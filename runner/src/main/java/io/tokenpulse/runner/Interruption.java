package io.tokenpulse.runner;

import java.io.PrintStream;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Ctrl-C (SIGINT) and SIGTERM while {@code bench} runs its load: the first signal stops the run
 * gracefully ({@link #stop()} completes: the load generator sends nothing more, lets the requests in
 * flight finish for {@code --drain-timeout-s}, publishes RunFinished marked interrupted, and the
 * report of what completed is printed); a second one ends the process at once.
 *
 * <p>While installed, these handlers replace the JVM's own, which would run the shutdown hooks and
 * exit at the first signal, cutting the run's records and report off. {@code sun.misc.Signal} (module
 * jdk.unsupported) is the JDK's only way to handle a signal instead; the JDK keeps it for exactly this.
 */
final class Interruption implements AutoCloseable {

    private static final String[] SIGNALS = {"INT", "TERM"};

    private final PrintStream err;
    private final Duration drain;
    /** Completes with the exit code (128 + the signal's number, as a shell reports it) at the first signal. */
    private final CompletableFuture<Integer> first = new CompletableFuture<>();

    private final Map<Signal, SignalHandler> previous = new LinkedHashMap<>();

    private Interruption(PrintStream err, Duration drain) {
        this.err = err;
        this.drain = drain;
    }

    /** Handles SIGINT and SIGTERM from now until {@link #close()}. */
    static Interruption install(PrintStream err, Duration drain) {
        Interruption interruption = new Interruption(err, drain);
        for (String name : SIGNALS) {
            Signal signal = new Signal(name);
            interruption.previous.put(signal, Signal.handle(signal, interruption::handle));
        }
        return interruption;
    }

    /** Completes at the first signal. */
    CompletionStage<?> stop() {
        return first;
    }

    /** The exit code a signal asks for (130 for SIGINT, 143 for SIGTERM), or {@code otherwise} when none came. */
    int exitCode(int otherwise) {
        return first.getNow(otherwise);
    }

    /** 130 after SIGINT, 143 after SIGTERM; empty while no signal came. */
    OptionalInt signalExitCode() {
        return first.isDone() ? OptionalInt.of(first.join()) : OptionalInt.empty();
    }

    boolean interrupted() {
        return first.isDone();
    }

    /** Runs on the JVM's signal thread. */
    private void handle(Signal signal) {
        int code = 128 + signal.getNumber();
        if (first.complete(code)) {
            err.println("Interrupted (SIG" + signal.getName() + "): no new requests; those in flight may finish within "
                    + drain.toSeconds() + " s (--drain-timeout-s), then the result of what completed is printed."
                    + " Press Ctrl-C again to stop at once.");
        } else {
            err.println("Stopped at once (SIG" + signal.getName() + " again): no result.");
            err.flush();
            // halt, not exit: nothing may wait now (the user asked twice), and the OS frees the data dir's locks
            Runtime.getRuntime().halt(code);
        }
    }

    /** Gives the signals back to the handlers they had before. */
    @Override
    public void close() {
        previous.forEach(Signal::handle);
    }
}
