package io.tokenpulse.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts the bench process's pipeline (the embedded broker and registry, the in-process aggregator,
 * the publisher, the server-metrics scraper, /metrics) at a lower CPU priority than its timing
 * threads (the HTTP client's event loops, the schedule), so that on a shared host the pipeline's
 * bursts yield to the timing path and to the server being measured; it catches up when the cores
 * are free ({@code --pipeline-nice}).
 *
 * <p>Linux gives a new thread its creator's nice value. So each start runs on one thread of its own
 * that lowered its own priority first, and every thread the started parts create, now or later,
 * inherits it: the pipeline runs {@code --pipeline-nice} steps below the thread that started the command
 * ({@code nice ./tokenpulse bench} lowers both). Java cannot set a thread's nice value ({@code Thread.setPriority} is ignored on Linux
 * unless {@code -XX:ThreadPriorityPolicy=1}, which goes no lower than nice 4), so {@code renice} (util-
 * linux, on every Debian) is run on that thread's id, read from {@code /proc/thread-self}. Where
 * either is missing the pipeline runs at the timing threads' priority, after one warning line.
 */
final class PipelinePriority implements AutoCloseable {

    /** A start that may throw its own checked exception. */
    @FunctionalInterface
    interface Start<T, E extends Exception> {
        T run() throws E;
    }

    static final String OPTION = "--pipeline-nice";
    static final int MAX_NICE = 19;
    private static final Logger LOG = LoggerFactory.getLogger(PipelinePriority.class);
    private static final Path THREAD_SELF = Path.of("/proc/thread-self");

    private final int nice;
    /** The lowered thread every start runs on; null when not lowered. */
    private final ExecutorService starter;
    /** The starter's thread, once started: a start it runs that starts another part runs that inline. */
    private volatile Thread starterThread;

    private PipelinePriority(int nice) {
        this.nice = nice;
        this.starter = nice == 0
                ? null
                : Executors.newSingleThreadExecutor(task -> {
                    Thread thread = new Thread(task, "tp-pipeline-start");
                    thread.setDaemon(true);
                    starterThread = thread;
                    return thread;
                });
        if (starter != null) {
            starter.execute(this::lowerThisThread);
        }
    }

    /** @param nice steps below the timing threads: 0 (the same priority) to {@value #MAX_NICE} */
    static PipelinePriority of(int nice) {
        check(nice);
        return new PipelinePriority(nice);
    }

    /** A nice value outside 0 to {@value #MAX_NICE} is the user's to fix. */
    static void check(int nice) {
        if (nice < 0 || nice > MAX_NICE) {
            throw UserError.usage(OPTION + " " + nice + " is not a nice value from 0 to " + MAX_NICE
                    + ": give e.g. 10 (the default), or 0 to run the pipeline at the timing threads' priority");
        }
    }

    /** Runs {@code start} on the lowered thread (on this one at nice 0) and returns what it returns. */
    <T, E extends Exception> T start(Start<T, E> start) throws E, InterruptedException {
        if (starter == null || Thread.currentThread() == starterThread) {
            return start.run();
        }
        Future<T> started = starter.submit(start::run);
        try {
            return started.get();
        } catch (InterruptedException e) {
            started.cancel(true);
            throw e;
        } catch (ExecutionException e) {
            throw PipelinePriority.<E>rethrown(e.getCause());
        }
    }

    /** The start's own exception, unwrapped: only {@code E} or unchecked ones can reach here. */
    @SuppressWarnings("unchecked")
    private static <E extends Exception> E rethrown(Throwable cause) {
        if (cause instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (cause instanceof Error error) {
            throw error;
        }
        return (E) cause;
    }

    private void lowerThisThread() {
        String why;
        try {
            Path self = currentThread();
            int lowered = Math.min(MAX_NICE, niceOf(self) + nice);
            Process renice = new ProcessBuilder(
                            "renice",
                            "-n",
                            Integer.toString(lowered),
                            "-p",
                            self.getFileName().toString())
                    .redirectErrorStream(true)
                    .start();
            String said = new String(renice.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (renice.waitFor(10, TimeUnit.SECONDS) && renice.exitValue() == 0) {
                return;
            }
            why = "renice said: " + said;
        } catch (IOException | RuntimeException e) {
            why = e.toString();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        LOG.warn(
                "cannot lower the pipeline's CPU priority by {} ({}): it shares the cores equally with the timing threads",
                nice,
                why);
    }

    /** {@code /proc/PID/task/TID} of the calling thread. */
    static Path currentThread() throws IOException {
        return THREAD_SELF.resolveSibling(Files.readSymbolicLink(THREAD_SELF));
    }

    /**
     * The nice value of a thread, from {@code /proc/PID/task/TID/stat}: the 19th field, counted after
     * the command name, which may hold spaces but ends at the last ')'.
     */
    static int niceOf(Path procTask) throws IOException {
        String stat = Files.readString(procTask.resolve("stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Integer.parseInt(fields[16]);
    }

    @Override
    public void close() {
        if (starter != null) {
            starter.shutdownNow();
        }
    }
}
