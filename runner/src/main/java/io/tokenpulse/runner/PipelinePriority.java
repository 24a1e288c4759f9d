package io.tokenpulse.runner;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lowers the CPU priority of the bench process's pipeline (the embedded broker and registry, the
 * in-process aggregator, the publisher, the server-metrics scraper, /metrics) below its timing
 * threads (the HTTP client's event loops, the schedule) for the load, so that on a shared host the
 * pipeline's bursts yield to the timing path and to the server being measured; it catches up when the
 * cores are free ({@code --pipeline-nice}).
 *
 * <p>The pipeline starts at the process's own priority: before the clock there is nothing to protect,
 * and a start at a low priority would wait on a busy host. When the load begins, {@link
 * #lowerForTheLoad} lowers every thread started since this object was made, but for the HTTP client's
 * and the in-process simulator's and the JVM's own, by {@code --pipeline-nice} steps; what the lowered
 * threads start later inherits it (Linux gives a new thread its creator's nice value), and later starts
 * run on the lowered starter thread. Java cannot set a thread's nice value ({@code Thread.setPriority}
 * is ignored on Linux unless {@code -XX:ThreadPriorityPolicy=1}, which goes no lower than nice 4), so
 * {@code renice} (util-linux, on every Debian) is run on the threads' ids from {@code /proc/self/task}.
 * Where either is missing the pipeline keeps the timing threads' priority, after one warning line.
 * Priorities only order threads of one scheduling group: with autogroups or cgroups, a server started
 * in another session or service is not helped (docs/performance.md).
 */
public final class PipelinePriority implements AutoCloseable {

    /** A start that may throw its own checked exception. */
    @FunctionalInterface
    public interface Start<T, E extends Exception> {
        T run() throws E;
    }

    public static final String OPTION = "--pipeline-nice";
    public static final int MAX_NICE = 19;
    private static final Logger LOG = LoggerFactory.getLogger(PipelinePriority.class);
    private static final Path THREAD_SELF = Path.of("/proc/thread-self");
    private static final Path TASKS = Path.of("/proc/self/task");
    /**
     * Threads that keep the process's priority, by the first 15 characters of their names (Linux's):
     * the timing path's and the in-process server's, and the JVM's own (GC, JIT, safepoints), which
     * stop or serve every thread.
     */
    private static final List<String> KEPT = List.of(
            "tp-http-",
            "tp-sim-",
            "GC Thread",
            "G1 ",
            "VM Thread",
            "VM Periodic",
            "C1 CompilerThre",
            "C2 CompilerThre",
            "Sweeper",
            "Service Thread",
            "Signal Dispatch",
            "Reference Handl",
            "Finalizer",
            "Common-Cleaner",
            "Monitor Deflati",
            "Notification Th",
            "Attach Listener");

    private final int nice;
    /** The threads of the process before the pipeline: main's and the JVM's, never lowered. */
    private final Set<String> before;
    /** The thread every start runs on, lowered with the pipeline; null at 0. */
    private final ExecutorService starter;
    /** The starter's thread, once started: a start it runs that starts another part runs that inline. */
    private volatile Thread starterThread;

    private PipelinePriority(int nice) {
        this.nice = nice;
        this.before = nice == 0 ? Set.of() : taskIds();
        this.starter = nice == 0
                ? null
                : Executors.newSingleThreadExecutor(task -> {
                    Thread thread = new Thread(task, "tp-pipeline-start");
                    thread.setDaemon(true);
                    starterThread = thread;
                    return thread;
                });
    }

    /** @param nice steps below the timing threads: 0 (the same priority) to {@value #MAX_NICE} */
    public static PipelinePriority of(int nice) {
        check(nice);
        return new PipelinePriority(nice);
    }

    /** A nice value outside 0 to {@value #MAX_NICE} is the user's to fix. */
    public static void check(int nice) {
        if (nice < 0 || nice > MAX_NICE) {
            throw UserError.usage(OPTION + " " + nice + " is not a nice value from 0 to " + MAX_NICE
                    + ": give e.g. 10 (the default), or 0 to run the pipeline at the timing threads' priority");
        }
    }

    /**
     * Runs {@code start} on the starter thread (on this one at nice 0) and returns what it returns:
     * every thread it starts is the pipeline's, lowered with it.
     */
    public <T, E extends Exception> T start(Start<T, E> start) throws E, InterruptedException {
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

    /**
     * Lowers the pipeline's threads, as the load begins (again for each run of a sweep: threads started
     * since are lowered too). The calling thread is a timing thread and keeps its priority.
     */
    void lowerForTheLoad() {
        if (starter == null) {
            return;
        }
        String why;
        try {
            int lowered = Math.min(MAX_NICE, niceOf(currentThread()) + nice);
            List<String> pipeline = new ArrayList<>();
            for (String id : taskIds()) {
                if (!before.contains(id) && lowers(TASKS.resolve(id), lowered)) {
                    pipeline.add(id);
                }
            }
            if (pipeline.isEmpty()) {
                return;
            }
            List<String> command = new ArrayList<>(List.of("renice", "-n", Integer.toString(lowered), "-p"));
            command.addAll(pipeline);
            Process renice =
                    new ProcessBuilder(command).redirectErrorStream(true).start();
            String said = new String(renice.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (renice.waitFor(10, TimeUnit.SECONDS) && renice.exitValue() == 0) {
                return;
            }
            // a thread that ended meanwhile makes renice fail for that one id only
            if (said.lines().allMatch(line -> line.contains("No such process") || line.contains("old priority"))) {
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

    /** Whether a thread started with the pipeline is one of its own and not yet at {@code lowered}. */
    private static boolean lowers(Path task, int lowered) {
        try {
            String name = Files.readString(task.resolve("comm")).strip();
            return KEPT.stream().noneMatch(name::startsWith) && niceOf(task) < lowered;
        } catch (IOException ended) {
            return false; // the thread ended meanwhile
        }
    }

    private static Set<String> taskIds() {
        try (Stream<Path> tasks = Files.list(TASKS)) {
            return tasks.map(task -> task.getFileName().toString()).collect(Collectors.toSet());
        } catch (IOException | UncheckedIOException e) {
            return Set.of(); // not Linux: lowerForTheLoad then fails to read its own thread and warns
        }
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
