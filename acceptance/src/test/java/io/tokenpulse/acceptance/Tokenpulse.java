package io.tokenpulse.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The shipped {@code ./tokenpulse} launcher, run as a user runs it: a child process of its own with
 * {@code HOME} in a temporary folder (so {@code ~/.tokenpulse}, DJL's native-library cache and the
 * default data directory start empty), no class path and no system property of the test JVM.
 *
 * <p>The launcher rebuilds the jar when a source is newer; after {@code mvn package} it never is, and
 * a run that starts a build anyway fails (two builds in one tree race on {@code target/}).
 */
final class Tokenpulse {
    static final Path ROOT = Path.of(System.getProperty("tokenpulse.root", ".."))
            .toAbsolutePath()
            .normalize();
    static final Path LAUNCHER = ROOT.resolve("tokenpulse");
    static final Path JAR = ROOT.resolve("cli/target/tokenpulse.jar");
    /** A Hugging Face tokenizer folder with a chat template (Qwen3's), from {@code testdata/}. */
    static final Path QWEN3 = Path.of(System.getProperty("tokenpulse.qwen3", "../testdata/tokenizers/qwen3"))
            .toAbsolutePath()
            .normalize();

    /** Shakespeare's sonnets, the sonnet dataset's input, from {@code testdata/}. */
    static final Path SONNET = Path.of(System.getProperty("tokenpulse.sonnet", "../testdata/sonnet.txt"))
            .toAbsolutePath()
            .normalize();

    /**
     * A command run as from a terminal, whatever started the tests: a background job of a
     * non-interactive shell ({@code scripts/test &}, {@code nohup}) ignores SIGINT, every child
     * inherits that, and a test's Ctrl-C would never arrive. coreutils' {@code env --default-signal}
     * (8.31+) restores it and execs the launcher, so the pid stays the command's; empty where that
     * {@code env} is missing.
     */
    private static final List<String> SIGINT_RESTORED = sigintRestored();

    private static List<String> sigintRestored() {
        List<String> env = List.of("env", "--default-signal=INT");
        try {
            Process probe = new ProcessBuilder(
                            Stream.concat(env.stream(), Stream.of("true")).toList())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            return probe.waitFor(10, TimeUnit.SECONDS) && probe.exitValue() == 0 ? env : List.of();
        } catch (IOException e) {
            return List.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        }
    }

    /** A line of a Java stack trace, its cause, or an uncaught exception's first line. */
    private static final Pattern STACK_TRACE_LINE =
            Pattern.compile("^\\s+at \\S+\\(.*\\)$|^Caused by: |^Exception in thread ");

    private static final String REBUILD_NOTICE = "tokenpulse: building the command-line jar";

    private final Path home;
    private final Path logs;
    private int started;

    /** Processes get {@code HOME=home}; their output goes to files under {@code logs}. */
    Tokenpulse(Path home, Path logs) {
        this.home = home;
        this.logs = logs;
    }

    /** Runs {@code ./tokenpulse args...} in the repository root to its end; fails the test past {@code timeout}. */
    Result run(Duration timeout, String... args) {
        return run(ROOT, timeout, List.of(args));
    }

    Result run(Path workDir, Duration timeout, List<String> args) {
        return start(workDir, args).finish(timeout);
    }

    /** Starts {@code ./tokenpulse args...} (a server: platform, aggregate, simulate) and returns at once. */
    Background start(String... args) {
        return start(ROOT, List.of(args));
    }

    /** Starts {@code ./tokenpulse args...} in {@code workDir} and returns at once. */
    Background start(Path workDir, List<String> args) {
        List<String> command = new ArrayList<>(SIGINT_RESTORED);
        command.add(LAUNCHER.toString());
        command.addAll(args);
        int n = ++started;
        Path out = logs.resolve(n + "-" + args.get(0) + ".out");
        Path err = logs.resolve(n + "-" + args.get(0) + ".err");
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(workDir.toFile())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile());
        Map<String, String> env = builder.environment();
        env.put("HOME", home.toString());
        // nothing of the test JVM leaks into the product's
        env.remove("CLASSPATH");
        env.remove("JAVA_TOOL_OPTIONS");
        env.remove("_JAVA_OPTIONS");
        env.remove("TOKENPULSE_JAVA_OPTS");
        try {
            return new Background(builder.start(), args, out, err);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What a finished command printed. */
    record Result(List<String> args, int exitCode, String stdout, String stderr) {
        List<String> stdoutLines() {
            return lines(stdout);
        }

        List<String> stderrLines() {
            return lines(stderr);
        }

        private static List<String> lines(String text) {
            return text.isEmpty() ? List.of() : Arrays.asList(text.split("\r?\n"));
        }

        /**
         * Nothing on stderr a user cannot act on: no library warning or error (Kafka's included: hidden
         * unless --verbose), no stack trace. A file dataset's one line per run (entries read, dropped,
         * sampled) is the only line allowed.
         */
        void assertQuietStderr() {
            assertThat(stderrLines())
                    .as(toString())
                    .allSatisfy(line -> assertThat(line).matches("INFO \\w+Dataset - .*"));
        }

        /**
         * No stack trace on either stream: without --verbose a user sees one line per problem (checked
         * for every command the suite runs, in {@link Background#finish}).
         */
        void assertNoStackTrace() {
            List<String> traces = Stream.concat(stdoutLines().stream(), stderrLines().stream())
                    .filter(line -> STACK_TRACE_LINE.matcher(line).find())
                    .toList();
            assertThat(traces)
                    .as("stack trace lines without --verbose in " + this)
                    .isEmpty();
        }

        @Override
        public String toString() {
            return "tokenpulse " + String.join(" ", args) + " -> exit " + exitCode + "\nstdout:\n" + stdout
                    + "\nstderr:\n" + stderr;
        }
    }

    /**
     * A result file of bench without the client CPU keys: they are facts of the bench process, not
     * of the stored run, so {@code replay} cannot reproduce them.
     */
    static String withoutClientCpu(String benchJson) {
        String without = benchJson.replaceAll("\"client_[a-z0-9_]+\": [^,]+, ", "");
        assertThat(without).doesNotContain("client_");
        return without;
    }

    /** A command that runs until stopped (SIGTERM, as Ctrl-C: its shutdown hooks run). */
    static final class Background implements AutoCloseable {
        private final Process process;
        private final List<String> args;
        private final Path out;
        private final Path err;
        private final long startedNs = System.nanoTime();

        Background(Process process, List<String> args, Path out, Path err) {
            this.process = process;
            this.args = args;
            this.out = out;
            this.err = err;
        }

        String stdout() {
            return read(out);
        }

        String stderr() {
            return read(err);
        }

        /** Waits until a stdout line matches {@code pattern}; fails if the process ends or {@code timeout} passes. */
        Matcher awaitLine(Pattern pattern, Duration timeout) throws InterruptedException {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() < deadline) {
                for (String line : stdout().split("\r?\n")) {
                    Matcher m = pattern.matcher(line);
                    if (m.find()) {
                        return m;
                    }
                }
                if (!process.isAlive()) {
                    throw new AssertionError("tokenpulse " + String.join(" ", args) + " ended with exit "
                            + process.exitValue() + " before printing /" + pattern + "/; stdout:\n" + stdout()
                            + "\nstderr:\n" + stderr());
                }
                Thread.sleep(100);
            }
            throw new AssertionError("tokenpulse " + String.join(" ", args) + " printed no /" + pattern + "/ within "
                    + timeout + "; stdout:\n" + stdout() + "\nstderr:\n" + stderr());
        }

        /** Waits for the command's end; fails the test past {@code timeout}. */
        Result finish(Duration timeout) {
            try {
                if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    stop();
                    throw new AssertionError("tokenpulse " + String.join(" ", args) + " did not end within " + timeout
                            + "; stdout:\n" + stdout() + "\nstderr:\n" + stderr());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                stop();
                throw new AssertionError(e);
            }
            Result result = new Result(args, process.exitValue(), stdout(), stderr());
            // the suite's time, command by command, in the test's output file
            System.out.printf(
                    "%6.1f s  exit %d  tokenpulse %s%n",
                    (System.nanoTime() - startedNs) / 1e9, result.exitCode(), String.join(" ", args));
            assertThat(result.stderr())
                    .as("the launcher rebuilt the jar during a test run")
                    .doesNotContain(REBUILD_NOTICE);
            if (!args.contains("--verbose")) {
                result.assertNoStackTrace();
            }
            return result;
        }

        /** SIGKILL, as a crash would end it; returns once the process is gone. */
        void kill() throws InterruptedException {
            process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }

        /** Sends {@code signal} ({@code INT}, {@code TERM}) to the command, as a terminal's Ctrl-C or {@code kill} does. */
        void signal(String signal) throws IOException, InterruptedException {
            // the launcher execs java, so its pid is the JVM's
            int code = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
                    .inheritIO()
                    .start()
                    .waitFor();
            assertThat(code).as("kill -" + signal).isZero();
        }

        /**
         * The nice value of each of the command's threads, by the thread's name as Linux keeps it (its
         * first 15 characters), from {@code /proc/PID/task}; threads that end meanwhile are left out.
         */
        Map<String, List<Integer>> threadNices() throws IOException {
            Map<String, List<Integer>> nices = new TreeMap<>();
            try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(process.pid()), "task"))) {
                for (Path task : tasks.toList()) {
                    try {
                        String name = Files.readString(task.resolve("comm")).strip();
                        String stat = Files.readString(task.resolve("stat"));
                        // the 19th field, counted after the name, which ends at the last ')'
                        int nice = Integer.parseInt(
                                stat.substring(stat.lastIndexOf(')') + 2).split(" ")[16]);
                        nices.computeIfAbsent(name, n -> new ArrayList<>()).add(nice);
                    } catch (NoSuchFileException ended) {
                        // the thread ended between the listing and the read
                    }
                }
            }
            return nices;
        }

        /** Whether the command is still running. */
        boolean isAlive() {
            return process.isAlive();
        }

        /** Seconds since the command started. */
        double secondsSinceStart() {
            return (System.nanoTime() - startedNs) / 1e9;
        }

        /** SIGTERM, then the exit code (after at most 60 s; then SIGKILL). */
        int stop() {
            process.destroy();
            try {
                if (!process.waitFor(60, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
            return process.isAlive() ? -1 : process.exitValue();
        }

        @Override
        public void close() {
            if (process.isAlive()) {
                stop();
            }
        }

        private static String read(Path file) {
            try {
                return Files.readString(file, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
