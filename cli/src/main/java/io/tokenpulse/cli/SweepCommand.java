package io.tokenpulse.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.tokenpulse.aggregator.report.BenchResult;
import io.tokenpulse.aggregator.report.ResultReader;
import io.tokenpulse.charts.ParetoChart;
import io.tokenpulse.charts.SweepChart;
import io.tokenpulse.cli.vllm.BenchNamespace;
import io.tokenpulse.cli.vllm.PythonNamespace;
import io.tokenpulse.runner.BenchHost;
import io.tokenpulse.runner.Closing;
import io.tokenpulse.runner.Pipeline;
import io.tokenpulse.runner.PipelinePriority;
import io.tokenpulse.runner.RunIds;
import io.tokenpulse.runner.RunOutcome;
import io.tokenpulse.runner.UserError;
import io.tokenpulse.runner.sweep.SaturationSearch;
import io.tokenpulse.runner.sweep.SaturationStop;
import io.tokenpulse.runner.sweep.SearchSlo;
import io.tokenpulse.runner.sweep.ServedServer;
import io.tokenpulse.runner.sweep.SweepFile;
import io.tokenpulse.runner.sweep.SweepFile.Entry;
import io.tokenpulse.runner.sweep.SweepFile.SearchResult;
import io.tokenpulse.runner.sweep.SweepRows;
import io.tokenpulse.schemas.PipelineRole;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * {@code tokenpulse sweep}: many bench runs in one command, on one pipeline and one in-process
 * aggregator (a {@link BenchHost}), each point a {@link BenchCommand} run of its own with its own run
 * id. Writes {@code DIR/sweep.json} after every point (so {@code --resume DIR} skips what is done),
 * each point's vLLM result file under {@code DIR/points/}, and the summary table as
 * {@code DIR/summary.md} and {@code DIR/summary.csv}.
 */
@Command(
        name = "sweep",
        sortOptions = false,
        mixinStandardHelpOptions = true,
        description = {
            "Run bench over the cartesian product of flag values: any bench flag takes a comma list or a range"
                    + " (--num-prompts 1,2,4..2048x2, --request-rate 1..8+1), or the rows of --bench-params.",
            "All bench flags are accepted (see 'tokenpulse bench --help')."
        })
final class SweepCommand implements Callable<Integer> {

    static final String SWEEP_JSON = SweepFile.NAME;
    static final String POINTS = "points";
    /** TTFT/TPOT/ITL P50 and P99 and throughput against the first swept variable, when it is a number. */
    static final String CHART = "sweep-chart.png";
    /** Output tokens/s per user against total token throughput, the Pareto front marked. */
    static final String PARETO = "sweep-pareto.png";

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @Option(
            names = "--bench-params",
            paramLabel = "FILE",
            description =
                    "JSON list of bench flag maps, or an object of name -> flag map (vLLM's format): one point per row, times the listed flags.")
    Path benchParams;

    @Option(
            names = "--num-runs",
            defaultValue = "1",
            description =
                    "Runs per point; the summary shows their mean and 95 % confidence interval (default: ${DEFAULT-VALUE}).")
    int numRuns;

    @Option(
            names = "--output-dir",
            paramLabel = "DIR",
            description = "Where sweep.json, points/, summary.md and summary.csv go (default: ./sweep-<timestamp>).")
    Path outputDir;

    @Option(
            names = "--resume",
            paramLabel = "DIR",
            description =
                    "Continue the sweep in DIR with the flags stored in its sweep.json (give none, or the same again): points done there are skipped.")
    Path resume;

    @Option(
            names = "--serve-cmd",
            paramLabel = "CMD",
            description =
                    "Start this server (a shell command) for each --serve-params setting, with the setting's flags appended; wait for its /health (--ready-check-timeout-sec), run the points, stop it.")
    String serveCmd;

    @Option(
            names = "--serve-params",
            paramLabel = "FILE",
            description =
                    "JSON list of server flag maps, or an object of name -> flag map: one server setting per row.")
    Path serveParams;

    @Option(
            names = "--search",
            paramLabel = "rate|concurrency",
            description =
                    "Instead of a grid, raise --request-rate (rate) or --max-concurrency (concurrency) from --search-start by --search-factor until a point misses --slo, then bisect; reports the highest load that met the SLO.")
    String search;

    @Option(
            names = "--slo",
            paramLabel = "KEY:VALUE,...",
            description =
                    "What --search must meet: ttft and itl bound the P99 in ms, failures the share of failed requests, e.g. ttft:2000,itl:100,failures:0.01.")
    String slo;

    @Option(
            names = "--search-start",
            defaultValue = "1",
            description = "The first load --search probes (req/s or concurrent requests; default: ${DEFAULT-VALUE}).")
    double searchStart;

    @Option(
            names = "--search-factor",
            defaultValue = "2",
            description = "How much --search raises the load until the SLO is missed (default: ${DEFAULT-VALUE}).")
    double searchFactor;

    @Option(
            names = "--search-max-points",
            defaultValue = "8",
            description = "At most this many points (raise and bisect) per search (default: ${DEFAULT-VALUE}).")
    int searchMaxPoints;

    @Option(
            names = "--search-stop-margin",
            defaultValue = "2",
            description =
                    "Stop a search point early when the live P99 TTFT of its first tokens exceeds this many times the SLO's ttft (default: ${DEFAULT-VALUE}).")
    double searchStopMargin;

    @Option(
            names = "--search-stop-windows",
            defaultValue = "3",
            description =
                    "... in this many consecutive 1 s windows; 0 never stops a point early (default: ${DEFAULT-VALUE}).")
    int searchStopWindows;

    /** Every other argument is a bench flag, as a value or a list. */
    @Unmatched
    List<String> benchArgs = new ArrayList<>();

    @Spec
    CommandSpec spec;

    /** A point's run: what it is, where its result goes, and the bench command parsed from its flags. */
    private record Task(SweepPlan.Point point, int run, String result, BenchCommand bench) {
        String key() {
            return point.name() + "#" + run;
        }
    }

    @Override
    public Integer call() throws Exception {
        PrintStream out = System.out;
        Path dir = folder();
        SweepFile file = previous(dir);
        List<String> args = ownArgs();
        if (resume != null && file.args() == null && args.isEmpty()) {
            throw UserError.usage("--resume " + dir + ": its " + SWEEP_JSON + " was written by an older version"
                    + " that did not keep the sweep's flags; give them again beside --resume");
        }
        if (resume != null && file.args() != null) {
            if (args.isEmpty()) {
                out.println("Resuming " + dir + " with its flags: " + String.join(" ", file.args()));
                return stored(file.args()).call();
            }
            if (!args.equals(file.args())) {
                throw UserError.usage("--resume " + dir + ": the sweep there ran with other flags ("
                        + String.join(" ", file.args()) + "); give --resume " + dir + " alone, or the same flags");
            }
        }
        SweepPlan plan = plan();
        Probing probing = probing(plan);
        List<List<Task>> tasks = probing == null ? tasks(plan, dir) : List.of();
        BenchCommand first = probing == null
                ? tasks.get(0).get(0).bench()
                : probing.task(searchStart, dir).bench();
        if (serveCmd != null && first.simulate.simulate) {
            throw UserError.usage("--serve-cmd starts the server the points benchmark, --simulate the built-in one"
                    + " in its place: give one of them");
        }
        Files.createDirectories(dir.resolve(POINTS));
        List<String> swept = probing == null ? plan.swept() : List.of(probing.param());
        Session session = new Session(dir, new SweepFile(file.sweepId(), args, swept, file.points(), null), out);
        int exit;
        try (session) {
            exit = probing == null ? runGrid(plan, tasks, session) : runSearch(plan, probing, session);
        }
        String table = session.finish(true);
        out.println();
        out.print(table);
        out.println("Sweep saved to " + dir.toAbsolutePath().normalize() + " (" + SWEEP_JSON + ", " + POINTS
                + "/, summary.md, summary.csv)");
        if (exit >= INTERRUPTED_MIN) {
            out.println("Interrupted: run 'tokenpulse sweep --resume " + dir + "' to finish the sweep.");
        }
        return exit;
    }

    /** Every point of every server setting, in plan order. */
    private int runGrid(SweepPlan plan, List<List<Task>> tasks, Session session)
            throws IOException, InterruptedException {
        PrintStream out = session.out;
        int total = tasks.stream().mapToInt(List::size).sum();
        int index = 0;
        int exit = 0;
        session.order(tasks.stream().flatMap(List::stream).toList(), plan.points());
        for (int s = 0; s < plan.settings().size() && exit < INTERRUPTED_MIN; s++) {
            SweepPlan.ServeSetting setting = plan.settings().get(s);
            List<Task> settingTasks = tasks.get(s);
            if (settingTasks.stream().allMatch(t -> SweepFile.finished(session.entries.get(t.key())))) {
                for (Task task : settingTasks) {
                    out.println(progress(++index, total, task) + ": done earlier, skipped");
                }
                continue;
            }
            try (ServedServer server = serveCmd == null
                    ? null
                    : serve(setting, s, session.dir, settingTasks.get(0).bench(), out)) {
                for (Task task : settingTasks) {
                    index++;
                    if (SweepFile.finished(session.entries.get(task.key()))) {
                        out.println(progress(index, total, task) + ": done earlier, skipped");
                        continue;
                    }
                    Ran ran = session.run(task, null);
                    out.println(progress(index, total, task) + ": " + ranLine(ran.entry()));
                    exit = Math.max(exit, ran.exitCode());
                    if (ran.exitCode() >= INTERRUPTED_MIN) {
                        break;
                    }
                }
            }
        }
        return exit;
    }

    /**
     * {@code --search}: probes one load after another as {@link SaturationSearch} asks, each an ordinary
     * point (a resumed search replays the verdicts of the points done earlier), then records what it found.
     */
    private int runSearch(SweepPlan plan, Probing probing, Session session) throws IOException, InterruptedException {
        PrintStream out = session.out;
        SaturationSearch search = probing.search();
        List<Task> probes = new ArrayList<>();
        int exit = 0;
        try (ServedServer server = serveCmd == null
                ? null
                : serve(
                        plan.settings().get(0),
                        0,
                        session.dir,
                        probing.task(searchStart, session.dir).bench(),
                        out)) {
            for (OptionalDouble next = search.next(); next.isPresent(); next = search.next()) {
                Task task = probing.task(next.getAsDouble(), session.dir);
                probes.add(task);
                // the table lists the points by load, sweep.json in the order probed
                session.order(
                        probes,
                        probes.stream()
                                .map(Task::point)
                                .sorted(Comparator.comparingDouble(
                                        p -> Double.parseDouble(p.params().get(probing.param()))))
                                .toList());
                String line = progress(probes.size(), searchMaxPoints, task) + ": ";
                Entry entry = session.entries.get(task.key());
                if (SweepFile.finished(entry) && Files.isRegularFile(session.dir.resolve(entry.result()))) {
                    line += "done earlier, skipped";
                } else {
                    Ran ran = session.run(task, probing.early());
                    exit = Math.max(exit, ran.exitCode());
                    if (ran.exitCode() >= INTERRUPTED_MIN) {
                        out.println(line + ranLine(ran.entry()));
                        break;
                    }
                    entry = ran.entry();
                    line += ranLine(entry);
                }
                Optional<String> miss = verdict(entry, probing.slo(), session.dir);
                session.record(task, entry.withVerdict(miss));
                search.record(next.getAsDouble(), miss.isEmpty());
                out.println(line + "; " + miss.map(m -> "missed the SLO: " + m).orElse("met the SLO"));
            }
        }
        if (exit < INTERRUPTED_MIN) {
            // its line ends the summary printed at the end
            session.searched(probing.result(search));
        }
        return exit;
    }

    /** {@code done in 2.3 s, run id X}, or {@code stopped_early in ...}. */
    private static String ranLine(Entry entry) {
        return entry.status() + " in " + String.format(Locale.ROOT, "%.1f", entry.wallS()) + " s, run id "
                + entry.runId();
    }

    /** Why a search point missed the SLO (stopped early, failed, or a figure of its result over a bound); empty when it met it. */
    private static Optional<String> verdict(Entry entry, SearchSlo slo, Path dir) throws IOException {
        return switch (entry.status()) {
            case SweepFile.STOPPED_EARLY -> Optional.of("stopped early (" + entry.reason() + ")");
            case SweepFile.DONE ->
                slo.miss(ResultReader.read(
                        JSON.readTree(dir.resolve(entry.result()).toFile())));
            default -> Optional.of("the run failed");
        };
    }

    /** The exit codes of a signal (130, 143): the sweep stops there. */
    private static final int INTERRUPTED_MIN = 128;

    /** A point run's entry and bench's exit code for it. */
    private record Ran(Entry entry, int exitCode) {}

    private String progress(int index, int total, Task task) {
        return "[" + index + "/" + total + "] " + task.point().name() + (numRuns > 1 ? " run " + task.run() : "");
    }

    /**
     * The sweep in progress: its folder, its entries so far, the order they are listed in, and the host
     * its points share (started at the first point that runs: a finished sweep resumed starts nothing).
     */
    private final class Session implements AutoCloseable {
        private final Path dir;
        private final PrintStream out;
        private final Map<String, Entry> entries = new LinkedHashMap<>();
        private SweepFile file;
        private List<Task> order = List.of();
        private List<SweepPlan.Point> points = List.of();
        private PipelinePriority priority;
        private Pipeline pipeline;
        private BenchHost host;

        Session(Path dir, SweepFile file, PrintStream out) {
            this.dir = dir;
            this.file = file;
            this.out = out;
            file.points().forEach(e -> entries.put(e.name() + "#" + e.run(), e));
        }

        /** The runs and points sweep.json and the summary list, in their order. */
        void order(List<Task> tasks, List<SweepPlan.Point> points) {
            this.order = List.copyOf(tasks);
            this.points = points;
        }

        /** Runs a point on the shared host and saves the sweep with its entry. */
        Ran run(Task task, SaturationStop early) throws IOException, InterruptedException {
            if (host == null) {
                BenchCommand bench = task.bench();
                priority = PipelinePriority.of(bench.pipelineNice.nice);
                pipeline = priority.start(() -> Pipeline.connect(bench.kafka.settings(), PipelineRole.BENCH));
                host = BenchHost.start(pipeline, bench.hostSettings(), priority);
            }
            Ran ran;
            try (early) {
                ran = SweepCommand.this.run(task, host, out, early);
            }
            record(task, ran.entry());
            return ran;
        }

        void record(Task task, Entry entry) throws IOException {
            entries.put(task.key(), entry);
            finish(false);
        }

        void searched(SearchResult result) throws IOException {
            file = file.withSearch(result);
            finish(false);
        }

        /** Saves sweep.json and the summary (the chart too when {@code chart}); returns the summary's markdown. */
        String finish(boolean chart) throws IOException {
            List<Entry> listed = new ArrayList<>();
            for (Task task : order) {
                Entry e = entries.get(task.key());
                if (e != null) {
                    listed.add(e);
                }
            }
            file = file.withPoints(listed);
            file.save(dir);
            return writeSummary(dir, file, points, entries, chart);
        }

        @Override
        public void close() {
            Closing.all(host, pipeline, priority);
        }
    }

    /**
     * Runs one point on the shared host, stopped early by {@code early} when not null; a failure of the
     * point is recorded, a usage error stops the sweep.
     */
    private Ran run(Task task, BenchHost host, PrintStream out, SaturationStop early)
            throws IOException, InterruptedException {
        out.println(PythonNamespace.format(task.bench().spec, BenchNamespace.ORDER));
        long started = System.nanoTime();
        String runId = null;
        int exitCode = 1;
        Optional<String> stoppedEarly = Optional.empty();
        try (BenchCommand.Prepared prepared = task.bench().prepare(out)) {
            runId = prepared.plan().load().runId();
            RunOutcome outcome = task.bench().runOn(prepared, host, out, early);
            exitCode = outcome.exitCode();
            stoppedEarly = outcome.saturated();
        } catch (UserError e) {
            if (e.exitCode() == 2) {
                throw e;
            }
            exitCode = e.exitCode();
            System.err.println("sweep: point " + task.point().name() + " failed: " + e.getMessage());
        } catch (RuntimeException e) {
            System.err.println("sweep: point " + task.point().name() + " failed: " + e);
        }
        double wallS = (System.nanoTime() - started) / 1e9;
        String status =
                exitCode != 0 ? SweepFile.FAILED : stoppedEarly.isPresent() ? SweepFile.STOPPED_EARLY : SweepFile.DONE;
        return new Ran(
                new Entry(
                        task.point().name(),
                        task.point().params(),
                        task.run(),
                        runId,
                        task.result(),
                        status,
                        wallS,
                        stoppedEarly.orElse(null),
                        null,
                        null),
                exitCode);
    }

    /**
     * A search's set-up: the searched flag, the bench flags every probe shares, the SLO and the early
     * stop. Each probe is the point {@code request_rate=4} (or {@code max_concurrency=4}).
     */
    private record Probing(
            String flag,
            List<String> baseArgs,
            SearchSlo slo,
            SaturationSearch search,
            double stopLimitMs,
            int stopWindows) {

        String param() {
            return SweepRows.param(flag);
        }

        Task task(double load, Path dir) {
            String value = SaturationSearch.number(load);
            List<String> args = new ArrayList<>(baseArgs);
            args.addAll(List.of(flag, value));
            SweepPlan.Point point = new SweepPlan.Point(param() + "=" + value, Map.of(param(), value), args);
            return SweepCommand.task(point, 1, dir);
        }

        /** A fresh early stop for one point, or null when the SLO has no TTFT or --search-stop-windows is 0. */
        SaturationStop early() {
            return stopWindows == 0 || Double.isNaN(stopLimitMs)
                    ? null
                    : new SaturationStop(stopLimitMs, stopWindows).start();
        }

        SearchResult result(SaturationSearch done) {
            Optional<Double> best = done.best();
            OptionalDouble missed = done.lowestMiss();
            int points = done.probes().size();
            String over = "Search over " + param() + " (" + slo.describe() + ", " + points + " point"
                    + (points == 1 ? "" : "s") + "): ";
            String summary;
            if (best.isPresent() && missed.isPresent()) {
                summary = over + "highest load that met the SLO: " + param() + "=" + SaturationSearch.number(best.get())
                        + " (the lowest that missed it: " + SaturationSearch.number(missed.getAsDouble()) + ")";
            } else if (best.isPresent()) {
                summary = over + "highest load that met the SLO: " + param() + "=" + SaturationSearch.number(best.get())
                        + "; no load probed missed it: raise --search-max-points or --search-start to find the limit";
            } else {
                summary = over + "no load met the SLO, down to " + param() + "="
                        + SaturationSearch.number(missed.orElse(0)) + ": lower --search-start";
            }
            return new SearchResult(
                    param(),
                    slo.limits(),
                    best.map(SaturationSearch::number).orElse(null),
                    missed.isPresent() ? SaturationSearch.number(missed.getAsDouble()) : null,
                    summary);
        }
    }

    /** The search's set-up from --search and --slo, checked before anything starts; null without --search. */
    private Probing probing(SweepPlan plan) {
        if (search == null) {
            if (slo != null) {
                throw UserError.usage("--slo is what --search must meet: add --search rate or --search concurrency");
            }
            return null;
        }
        String flag = switch (search) {
            case "rate" -> "--request-rate";
            case "concurrency" -> "--max-concurrency";
            default -> throw UserError.usage("--search must be rate or concurrency, got '" + search + "'");
        };
        if (slo == null) {
            throw UserError.usage("--search needs --slo, e.g. --slo ttft:2000,itl:100,failures:0.01");
        }
        String param = SweepRows.param(flag);
        List<String> baseArgs = plan.points().get(0).benchArgs();
        if (plan.swept().contains(param) || baseArgs.contains(flag)) {
            throw UserError.usage("--search " + search + " sets " + flag + " itself, from --search-start up: give "
                    + flag + " no " + (plan.swept().contains(param) ? "list" : "value"));
        }
        if (plan.points().size() > 1 || numRuns > 1) {
            throw UserError.usage("--search runs one search: give every other flag one value (no lists, several"
                    + " --bench-params or --serve-params rows, --num-runs); run one search per setting");
        }
        if (!(searchStopMargin > 0) || searchStopWindows < 0) {
            throw UserError.usage("--search-stop-margin must be > 0 and --search-stop-windows >= 0, got "
                    + searchStopMargin + " and " + searchStopWindows);
        }
        try {
            SearchSlo parsed = SearchSlo.parse(slo);
            Probing probing = new Probing(
                    flag,
                    baseArgs,
                    parsed,
                    new SaturationSearch(search.equals("concurrency"), searchStart, searchFactor, searchMaxPoints),
                    parsed.ttftMs().map(ms -> ms * searchStopMargin).orElse(Double.NaN),
                    searchStopWindows);
            probing.task(searchStart, Path.of(".")).bench().reporting.require(parsed.percentileMetrics(), 99);
            return probing;
        } catch (IllegalArgumentException e) {
            throw UserError.usage(e.getMessage());
        }
    }

    private ServedServer serve(SweepPlan.ServeSetting setting, int index, Path dir, BenchCommand first, PrintStream out)
            throws IOException, InterruptedException {
        Path log = dir.resolve("serve-" + (index + 1) + ".log");
        out.println("Starting server" + (setting.name().isEmpty() ? "" : " for " + setting.name()) + ": " + serveCmd
                + (setting.serverArgs().isEmpty() ? "" : " " + String.join(" ", setting.serverArgs())) + " (log "
                + log + ")");
        ServedServer server = ServedServer.start(serveCmd, setting.serverArgs(), log);
        server.awaitReady(first.target.baseUrl().resolve("/health"), Duration.ofSeconds(first.readyCheckTimeoutSec));
        return server;
    }

    private SweepPlan plan() {
        if (numRuns < 1) {
            throw UserError.usage("--num-runs must be >= 1, got " + numRuns);
        }
        if (serveParams != null && serveCmd == null) {
            throw UserError.usage("--serve-params needs --serve-cmd: the settings are flags of the server it starts");
        }
        if (resume != null && outputDir != null && !resume.equals(outputDir)) {
            throw UserError.usage("--resume DIR continues the sweep in DIR: leave out --output-dir");
        }
        try {
            return SweepPlan.of(
                    benchLine().getCommandSpec(),
                    benchArgs,
                    benchParams == null ? List.of() : SweepRows.read("--bench-params", benchParams),
                    serveParams == null ? List.of() : SweepRows.read("--serve-params", serveParams));
        } catch (IllegalArgumentException e) {
            throw UserError.usage(e.getMessage());
        }
    }

    private Path folder() {
        if (resume != null) {
            return resume;
        }
        return outputDir != null ? outputDir : Path.of("sweep-" + STAMP.format(LocalDateTime.now()));
    }

    /** The sweep so far: DIR's sweep.json with --resume, else a new sweep (DIR must not hold one). */
    private SweepFile previous(Path dir) throws IOException {
        Path json = dir.resolve(SWEEP_JSON);
        if (resume == null) {
            if (Files.exists(json)) {
                throw UserError.usage(dir + " already holds a sweep; continue it with --resume " + dir
                        + " or pass another --output-dir");
            }
            return new SweepFile("sweep-" + RunIds.next(), null, List.of(), List.of(), null);
        }
        if (!Files.isRegularFile(json)) {
            throw UserError.usage("--resume " + dir + ": no " + SWEEP_JSON + " there; pass the folder a sweep wrote");
        }
        try {
            return SweepFile.read(json);
        } catch (IOException e) {
            throw UserError.usage("--resume " + dir + ": " + SWEEP_JSON + " cannot be read ("
                    + e.getMessage().lines().findFirst().orElse("") + ")");
        }
    }

    /** Each setting's point runs, every bench command parsed now: a bad value fails before anything starts. */
    private List<List<Task>> tasks(SweepPlan plan, Path dir) {
        List<List<Task>> tasks = new ArrayList<>();
        for (SweepPlan.ServeSetting setting : plan.settings()) {
            List<Task> settingTasks = new ArrayList<>();
            for (SweepPlan.Point point : setting.points()) {
                for (int run = 1; run <= numRuns; run++) {
                    settingTasks.add(task(point, run, dir));
                }
            }
            tasks.add(settingTasks);
        }
        return tasks;
    }

    /** Run {@code run} of {@code point}: its bench command, saving its result under {@code DIR/points/}. */
    private static Task task(SweepPlan.Point point, int run, Path dir) {
        String file = fileName(point.name()) + "-run" + run + ".json";
        List<String> args = new ArrayList<>(point.benchArgs());
        args.addAll(List.of(
                "--save-result",
                "--save-detailed",
                "--result-dir",
                dir.resolve(POINTS).toString(),
                "--result-filename",
                file));
        return new Task(point, run, POINTS + "/" + file, parse(point, args));
    }

    /**
     * This sweep's own command line as sweep.json keeps it: its options (without --resume and
     * --output-dir, which name the folder) in a fixed order, then the bench flags as given.
     */
    private List<String> ownArgs() {
        List<String> args = new ArrayList<>();
        for (OptionSpec option : spec.commandLine().getParseResult().matchedOptions()) {
            String name = option.longestName();
            if (name.equals("--resume") || name.equals("--output-dir")) {
                continue;
            }
            if (option.arity().max() == 0) {
                args.add(name);
            }
            for (String value : option.originalStringValues()) {
                args.add(name);
                args.add(value);
            }
        }
        args.addAll(benchArgs);
        return args;
    }

    /** The sweep sweep.json's {@code args} describe, continuing in this one's --resume folder. */
    private SweepCommand stored(List<String> args) {
        List<String> command = new ArrayList<>(List.of("sweep"));
        command.addAll(args);
        command.addAll(List.of("--resume", resume.toString()));
        try {
            return (SweepCommand) TokenPulse.newCommandLine()
                    .parseArgs(command.toArray(String[]::new))
                    .subcommand()
                    .commandSpec()
                    .userObject();
        } catch (CommandLine.ParameterException e) {
            throw UserError.usage(
                    "--resume " + resume + ": the flags in its " + SWEEP_JSON + " no longer parse: " + e.getMessage());
        }
    }

    private static BenchCommand parse(SweepPlan.Point point, List<String> args) {
        List<String> command = new ArrayList<>(List.of("bench"));
        command.addAll(args);
        try {
            // through the top command, as 'tokenpulse bench' parses (a subcommand alone lacks its parent's options)
            return (BenchCommand) TokenPulse.newCommandLine()
                    .parseArgs(command.toArray(String[]::new))
                    .subcommand()
                    .commandSpec()
                    .userObject();
        } catch (CommandLine.ParameterException e) {
            throw UserError.usage("point " + point.name() + ": " + e.getMessage());
        }
    }

    /** A bench command line configured as {@code tokenpulse bench}'s (argparse's last-wins, Python floats). */
    private static CommandLine benchLine() {
        return TokenPulse.newCommandLine().getSubcommands().get("bench");
    }

    /** A file name from a point's name: what a file system may refuse becomes '_'. */
    static String fileName(String pointName) {
        String safe = pointName.replaceAll("[^A-Za-z0-9._=,+-]", "_");
        return safe.length() > 150 ? safe.substring(0, 150) : safe;
    }

    /**
     * summary.md and summary.csv from the finished runs' result files, with a search's outcome below the
     * table (and the chart at the end: it takes a moment, which points should not wait for); returns the
     * markdown.
     */
    private String writeSummary(
            Path dir, SweepFile file, List<SweepPlan.Point> points, Map<String, Entry> entries, boolean chart)
            throws IOException {
        List<SweepSummary.Row> rows = new ArrayList<>();
        for (SweepPlan.Point point : points) {
            List<BenchResult> runs = new ArrayList<>();
            for (int run = 1; run <= numRuns; run++) {
                Entry e = entries.get(point.name() + "#" + run);
                Path result = e == null ? null : dir.resolve(e.result());
                if (SweepFile.finished(e) && Files.isRegularFile(result)) {
                    runs.add(ResultReader.read(JSON.readTree(result.toFile())));
                }
            }
            rows.add(new SweepSummary.Row(point.params(), runs));
        }
        SweepSummary summary = new SweepSummary(file.swept(), rows, numRuns);
        String markdown = summary.markdown() + searchSection(file);
        Files.writeString(dir.resolve("summary.md"), markdown);
        Files.writeString(dir.resolve("summary.csv"), summary.csv());
        List<ParetoChart.Point> paretoPoints = summary.paretoPoints();
        if (chart && !paretoPoints.isEmpty()) {
            Files.write(
                    dir.resolve(PARETO),
                    ParetoChart.png("sweep " + dir.getFileName(), paretoPoints, ParetoChart.DEFAULT_SIZE));
        }
        List<SweepChart.Point> chartPoints = summary.chartPoints();
        if (chart && !chartPoints.isEmpty()) {
            String x = file.swept().get(0);
            Files.write(
                    dir.resolve(CHART),
                    SweepChart.png(
                            "sweep " + dir.getFileName() + " against " + x, x, chartPoints, SweepChart.DEFAULT_SIZE));
        }
        return markdown;
    }

    /** Below a search's table: each point's verdict in the order probed, then what the search found. */
    private static String searchSection(SweepFile file) {
        if (file.points().stream().allMatch(e -> e.sloMet() == null)) {
            return "";
        }
        StringBuilder md = new StringBuilder("\n## Search\n\n");
        for (Entry e : file.points()) {
            if (e.sloMet() != null) {
                md.append("- ")
                        .append(e.name())
                        .append(": ")
                        .append(e.sloMet() ? "met the SLO" : "missed the SLO: " + e.sloMiss())
                        .append('\n');
            }
        }
        if (file.search() != null) {
            md.append('\n').append(file.search().summary()).append('\n');
        }
        return md.toString();
    }
}
