package io.tokenpulse.runner.sweep;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tokenpulse.aggregator.report.ResultReader;
import io.tokenpulse.runner.HostSetup;
import io.tokenpulse.runner.RunOutcome;
import io.tokenpulse.runner.UserError;
import io.tokenpulse.runner.sweep.SweepFile.Entry;
import io.tokenpulse.schemas.avro.RunSummary;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Runs a sweep's points one after another on one host (one pipeline, one in-process aggregator,
 * started at the first point that runs: a finished sweep resumed starts nothing): a grid ({@link
 * #grid}, every point of every server setting, {@code --num-runs} times) or a saturation search
 * ({@link #search}). Each point is a bench run of its own, from its flags through the command's
 * {@link Benches}, saving its result file under {@code DIR/points/}; sweep.json is saved after every
 * point, so that {@code --resume} skips what is done. A search point is judged from the result it ran
 * to, in memory; a point done earlier, from the file it saved.
 */
public final class SweepRunner {

    /** The folder of the points' result files, in the sweep's folder. */
    public static final String POINTS = "points";

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A point's bench, parsed from its flags; a bad value is a usage error naming the point. */
    @FunctionalInterface
    public interface Benches {
        PointBench parse(SweepPoint point, List<String> flags);
    }

    /** Told each time sweep.json was saved: the summary beside it follows the same points. */
    @FunctionalInterface
    public interface Saved {
        void saved(SweepFile file, List<SweepPoint> points) throws IOException;
    }

    /** A point's run: what it is, where its result goes, and its bench. */
    private record Task(SweepPoint point, int run, String result, PointBench bench) {
        String key() {
            return point.name() + "#" + run;
        }
    }

    /** A point run's entry, bench's exit code for it, and its summary when it ran to one. */
    private record Ran(Entry entry, int exitCode, Optional<RunSummary> summary) {}

    private final Path dir;
    private final String serveCmd;
    private final Benches benches;
    private final Saved saved;
    private final PrintStream out;
    private final PrintStream err;
    private final Map<String, Entry> entries = new LinkedHashMap<>();
    private SweepFile file;
    private List<Task> order = List.of();
    private List<SweepPoint> points = List.of();
    private HostSetup.Started host;

    /**
     * @param file the sweep so far: a new one, or the one {@code --resume} continues (its entries are skipped)
     * @param serveCmd --serve-cmd, started for each server setting; null: the server is already there
     */
    public SweepRunner(
            Path dir, SweepFile file, String serveCmd, Benches benches, Saved saved, PrintStream out, PrintStream err) {
        this.dir = dir;
        this.file = file;
        this.serveCmd = serveCmd;
        this.benches = benches;
        this.saved = saved;
        this.out = out;
        this.err = err;
        file.points().forEach(e -> entries.put(e.name() + "#" + e.run(), e));
    }

    /** Every point of every setting, in plan order, each {@code numRuns} times; every bench is parsed before the first runs. */
    public SweepOutcome grid(List<ServeSetting> settings, int numRuns) throws IOException, InterruptedException {
        List<List<Task>> tasks = new ArrayList<>();
        for (ServeSetting setting : settings) {
            List<Task> settingTasks = new ArrayList<>();
            for (SweepPoint point : setting.points()) {
                for (int run = 1; run <= numRuns; run++) {
                    settingTasks.add(task(point, run));
                }
            }
            tasks.add(settingTasks);
        }
        begin(tasks.get(0).get(0).bench());
        order = tasks.stream().flatMap(List::stream).toList();
        points = settings.stream().flatMap(s -> s.points().stream()).toList();
        int total = order.size();
        int index = 0;
        int exit = 0;
        try {
            for (int s = 0; s < settings.size() && exit < SweepOutcome.INTERRUPTED_MIN; s++) {
                List<Task> settingTasks = tasks.get(s);
                if (settingTasks.stream().allMatch(t -> SweepFile.finished(entries.get(t.key())))) {
                    for (Task task : settingTasks) {
                        out.println(progress(++index, total, task, numRuns) + ": done earlier, skipped");
                    }
                    continue;
                }
                try (ServedServer server =
                        serve(settings.get(s), s, settingTasks.get(0).bench())) {
                    for (Task task : settingTasks) {
                        index++;
                        if (SweepFile.finished(entries.get(task.key()))) {
                            out.println(progress(index, total, task, numRuns) + ": done earlier, skipped");
                            continue;
                        }
                        Ran ran = run(task, null);
                        out.println(progress(index, total, task, numRuns) + ": " + ranLine(ran.entry()));
                        exit = Math.max(exit, ran.exitCode());
                        if (ran.exitCode() >= SweepOutcome.INTERRUPTED_MIN) {
                            break;
                        }
                    }
                }
            }
        } finally {
            closeHost();
        }
        return end(exit);
    }

    /**
     * {@code --search}: probes one load after another as the plan's {@link SaturationSearch} asks, each
     * an ordinary point (a resumed search replays the verdicts of the points done earlier), then records
     * what it found.
     */
    public SweepOutcome search(ServeSetting setting, SearchPlan plan) throws IOException, InterruptedException {
        PointBench first = task(plan.probe(plan.start()), 1).bench();
        begin(first);
        SaturationSearch search = plan.search();
        List<Task> probes = new ArrayList<>();
        int exit = 0;
        try (ServedServer server = serve(setting, 0, first)) {
            for (OptionalDouble next = search.next(); next.isPresent(); next = search.next()) {
                Task task = task(plan.probe(next.getAsDouble()), 1);
                probes.add(task);
                // the table lists the points by load, sweep.json in the order probed
                order = List.copyOf(probes);
                points = probes.stream()
                        .map(Task::point)
                        .sorted(Comparator.comparingDouble(
                                p -> Double.parseDouble(p.params().get(plan.param()))))
                        .toList();
                String line = progress(probes.size(), plan.maxPoints(), task, 1) + ": ";
                Entry entry = entries.get(task.key());
                Optional<RunSummary> summary = Optional.empty();
                if (SweepFile.finished(entry) && Files.isRegularFile(dir.resolve(entry.result()))) {
                    line += "done earlier, skipped";
                } else {
                    Ran ran = run(task, plan.early());
                    exit = Math.max(exit, ran.exitCode());
                    if (ran.exitCode() >= SweepOutcome.INTERRUPTED_MIN) {
                        out.println(line + ranLine(ran.entry()));
                        break;
                    }
                    entry = ran.entry();
                    summary = ran.summary();
                    line += ranLine(entry);
                }
                Optional<String> miss = verdict(entry, summary, plan.slo());
                record(task, entry.withVerdict(miss));
                search.record(next.getAsDouble(), miss.isEmpty());
                out.println(line + "; " + miss.map(m -> "missed the SLO: " + m).orElse("met the SLO"));
            }
        } finally {
            closeHost();
        }
        if (exit < SweepOutcome.INTERRUPTED_MIN) {
            // its line ends the summary
            file = file.withSearch(plan.result());
            save();
        }
        return end(exit);
    }

    /** Checks what the first point says against --serve-cmd, and makes the folder of the points' files. */
    private void begin(PointBench first) throws IOException {
        if (serveCmd != null && first.simulated()) {
            throw UserError.usage("--serve-cmd starts the server the points benchmark, --simulate the built-in one"
                    + " in its place: give one of them");
        }
        Files.createDirectories(dir.resolve(POINTS));
    }

    private SweepOutcome end(int exit) throws IOException {
        save();
        return new SweepOutcome(file, points, exit);
    }

    /** Run {@code run} of {@code point}: its bench, saving its result under {@code DIR/points/}. */
    private Task task(SweepPoint point, int run) {
        String name = fileName(point.name()) + "-run" + run + ".json";
        List<String> args = new ArrayList<>(point.benchArgs());
        args.addAll(List.of(
                "--save-result",
                "--save-detailed",
                "--result-dir",
                dir.resolve(POINTS).toString(),
                "--result-filename",
                name));
        return new Task(point, run, POINTS + "/" + name, benches.parse(point, args));
    }

    /** A file name from a point's name: what a file system may refuse becomes '_'. */
    static String fileName(String pointName) {
        String safe = pointName.replaceAll("[^A-Za-z0-9._=,+-]", "_");
        return safe.length() > 150 ? safe.substring(0, 150) : safe;
    }

    /** Starts --serve-cmd for {@code setting} and waits until it is ready; null without --serve-cmd. */
    private ServedServer serve(ServeSetting setting, int index, PointBench first)
            throws IOException, InterruptedException {
        if (serveCmd == null) {
            return null;
        }
        Path log = dir.resolve("serve-" + (index + 1) + ".log");
        out.println("Starting server" + (setting.name().isEmpty() ? "" : " for " + setting.name()) + ": " + serveCmd
                + (setting.serverArgs().isEmpty() ? "" : " " + String.join(" ", setting.serverArgs())) + " (log "
                + log + ")");
        ServedServer server = ServedServer.start(serveCmd, setting.serverArgs(), log);
        try {
            server.awaitReady(first.health(), first.readyTimeout());
        } catch (RuntimeException | InterruptedException e) {
            server.close();
            throw e;
        }
        return server;
    }

    /**
     * Runs one point on the shared host (started at the first point that runs), stopped early by
     * {@code early} when not null, and saves the sweep with its entry; a failure of the point is
     * recorded, a usage error stops the sweep.
     */
    private Ran run(Task task, SaturationStop early) throws IOException, InterruptedException {
        if (host == null) {
            host = task.bench().host().start();
        }
        long started = System.nanoTime();
        String runId = null;
        int exitCode = 1;
        Optional<String> stoppedEarly = Optional.empty();
        Optional<RunSummary> summary = Optional.empty();
        try (early;
                PointBench.Ready ready = task.bench().prepare(out)) {
            runId = ready.runId();
            RunOutcome outcome = ready.runOn(host.host(), out, early);
            exitCode = outcome.exitCode();
            stoppedEarly = outcome.saturated();
            summary = Optional.of(outcome.result().summary());
        } catch (UserError e) {
            if (e.exitCode() == 2) {
                throw e;
            }
            exitCode = e.exitCode();
            err.println("sweep: point " + task.point().name() + " failed: " + e.getMessage());
        } catch (RuntimeException e) {
            err.println("sweep: point " + task.point().name() + " failed: " + e);
        }
        double wallS = (System.nanoTime() - started) / 1e9;
        String status =
                exitCode != 0 ? SweepFile.FAILED : stoppedEarly.isPresent() ? SweepFile.STOPPED_EARLY : SweepFile.DONE;
        Entry entry = new Entry(
                task.point().name(),
                task.point().params(),
                task.run(),
                runId,
                task.result(),
                status,
                wallS,
                stoppedEarly.orElse(null),
                null,
                null);
        record(task, entry);
        return new Ran(entry, exitCode, summary);
    }

    /**
     * Why a search point missed the SLO (stopped early, failed, or a figure of its result over a
     * bound); empty when it met it. A point that ran now is judged from its summary, as its result
     * file holds it; a point done earlier, from the file it saved.
     */
    private Optional<String> verdict(Entry entry, Optional<RunSummary> summary, SearchSlo slo) throws IOException {
        return switch (entry.status()) {
            case SweepFile.STOPPED_EARLY -> Optional.of("stopped early (" + entry.reason() + ")");
            case SweepFile.DONE ->
                slo.miss(
                        summary.isPresent()
                                ? ResultReader.of(summary.get())
                                : ResultReader.read(JSON.readTree(
                                        dir.resolve(entry.result()).toFile())));
            default -> Optional.of("the run failed");
        };
    }

    private void record(Task task, Entry entry) throws IOException {
        entries.put(task.key(), entry);
        save();
    }

    /** Saves sweep.json with the entries of the runs in order, and tells {@link Saved}. */
    private void save() throws IOException {
        List<Entry> listed = new ArrayList<>();
        for (Task task : order) {
            Entry e = entries.get(task.key());
            if (e != null) {
                listed.add(e);
            }
        }
        file = file.withPoints(listed);
        file.save(dir);
        saved.saved(file, points);
    }

    private void closeHost() {
        if (host != null) {
            host.close();
            host = null;
        }
    }

    /** {@code done in 2.3 s, run id X}, or {@code stopped_early in ...}. */
    private static String ranLine(Entry entry) {
        return entry.status() + " in " + String.format(Locale.ROOT, "%.1f", entry.wallS()) + " s, run id "
                + entry.runId();
    }

    private static String progress(int index, int total, Task task, int numRuns) {
        return "[" + index + "/" + total + "] " + task.point().name() + (numRuns > 1 ? " run " + task.run() : "");
    }
}
