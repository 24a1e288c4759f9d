package io.tokenpulse.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.tokenpulse.charts.SweepChart;
import io.tokenpulse.schemas.PipelineRole;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
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

    static final String SWEEP_JSON = "sweep.json";
    static final String POINTS = "points";
    /** TTFT/TPOT/ITL P50 and P99 and throughput against the first swept variable, when it is a number. */
    static final String CHART = "sweep-chart.png";

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
            description = "Continue the sweep in DIR (give the same flags again): points done there are skipped.")
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

    /** Every other argument is a bench flag, as a value or a list. */
    @Unmatched
    List<String> benchArgs = new ArrayList<>();

    /** A point's run: what it is, where its result goes, and the bench command parsed from its flags. */
    private record Task(SweepPlan.Point point, int run, String result, BenchCommand bench) {
        String key() {
            return point.name() + "#" + run;
        }
    }

    /** {@code DIR/sweep.json}: the report helper reads it; keep its keys. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record SweepFile(String sweepId, List<String> swept, List<Entry> points) {}

    /**
     * One run of one point.
     *
     * @param result the vLLM result file, relative to the sweep's folder
     * @param status {@code done} or {@code failed}
     * @param wallS the seconds the run took in the sweep, set-up and report included
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Entry(
            String name,
            Map<String, String> params,
            int run,
            String runId,
            String result,
            String status,
            double wallS) {}

    @Override
    public Integer call() throws Exception {
        PrintStream out = System.out;
        SweepPlan plan = plan();
        Path dir = folder();
        SweepFile file = previous(dir);
        Map<String, Entry> entries = new LinkedHashMap<>();
        file.points().forEach(e -> entries.put(e.name() + "#" + e.run(), e));
        List<List<Task>> tasks = tasks(plan, dir);
        Files.createDirectories(dir.resolve(POINTS));
        BenchCommand first = tasks.get(0).get(0).bench();
        int total = tasks.stream().mapToInt(List::size).sum();
        int index = 0;
        int exit = 0;
        // started at the first point to run (after its server is ready): a finished sweep resumed starts nothing
        Pipeline pipeline = null;
        BenchHost host = null;
        try {
            for (int s = 0; s < plan.settings().size() && exit < INTERRUPTED_MIN; s++) {
                SweepPlan.ServeSetting setting = plan.settings().get(s);
                List<Task> settingTasks = tasks.get(s);
                if (settingTasks.stream().allMatch(t -> isDone(entries.get(t.key())))) {
                    for (Task task : settingTasks) {
                        out.println(progress(++index, total, task) + ": done earlier, skipped");
                    }
                    continue;
                }
                try (ServedServer server = serveCmd == null ? null : serve(setting, s, dir, first, out)) {
                    for (Task task : settingTasks) {
                        index++;
                        if (isDone(entries.get(task.key()))) {
                            out.println(progress(index, total, task) + ": done earlier, skipped");
                            continue;
                        }
                        if (host == null) {
                            pipeline = Pipeline.connect(first.kafka, PipelineRole.BENCH);
                            host = BenchHost.start(pipeline, first.metrics, first.windows, first.frugal.frugal);
                        }
                        Ran ran = run(task, host, out);
                        Entry entry = ran.entry();
                        entries.put(task.key(), entry);
                        save(dir, new SweepFile(file.sweepId(), plan.swept(), inPlanOrder(tasks, entries)));
                        writeSummary(dir, plan, entries, false);
                        out.println(progress(index, total, task) + ": " + entry.status() + " in "
                                + String.format(Locale.ROOT, "%.1f", entry.wallS()) + " s, run id "
                                + entry.runId());
                        exit = Math.max(exit, ran.exitCode());
                        if (ran.exitCode() >= INTERRUPTED_MIN) {
                            break;
                        }
                    }
                }
            }
        } finally {
            BenchRun.closeAll(host, pipeline);
        }
        save(dir, new SweepFile(file.sweepId(), plan.swept(), inPlanOrder(tasks, entries)));
        String table = writeSummary(dir, plan, entries, true);
        out.println();
        out.print(table);
        out.println("Sweep saved to " + dir.toAbsolutePath().normalize() + " (" + SWEEP_JSON + ", " + POINTS
                + "/, summary.md, summary.csv)");
        if (exit >= INTERRUPTED_MIN) {
            out.println("Interrupted: run the same command with --resume " + dir + " to finish the sweep.");
        }
        return exit;
    }

    /** The exit codes of a signal (130, 143): the sweep stops there. */
    private static final int INTERRUPTED_MIN = 128;

    /** A point run's entry and bench's exit code for it. */
    private record Ran(Entry entry, int exitCode) {}

    private static boolean isDone(Entry entry) {
        return entry != null && entry.status().equals("done");
    }

    private String progress(int index, int total, Task task) {
        return "[" + index + "/" + total + "] " + task.point().name() + (numRuns > 1 ? " run " + task.run() : "");
    }

    /** Runs one point on the shared host; a failure of the point is recorded, a usage error stops the sweep. */
    private Ran run(Task task, BenchHost host, PrintStream out) throws IOException, InterruptedException {
        long started = System.nanoTime();
        String runId = null;
        int exitCode = 1;
        try (BenchCommand.Prepared prepared = task.bench().prepare(out)) {
            runId = prepared.plan().load().runId();
            BenchCommand.Outcome outcome = task.bench().runOn(prepared, host, out);
            exitCode = outcome.exitCode();
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
        String status = exitCode == 0 ? "done" : "failed";
        return new Ran(
                new Entry(task.point().name(), task.point().params(), task.run(), runId, task.result(), status, wallS),
                exitCode);
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
                    benchParams == null ? List.of() : SweepPlan.readRows("--bench-params", benchParams),
                    serveParams == null ? List.of() : SweepPlan.readRows("--serve-params", serveParams));
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
            return new SweepFile("sweep-" + RunIds.next(), List.of(), List.of());
        }
        if (!Files.isRegularFile(json)) {
            throw UserError.usage("--resume " + dir + ": no " + SWEEP_JSON + " there; pass the folder a sweep wrote");
        }
        try {
            return JSON.readValue(json.toFile(), SweepFile.class);
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
                    String file = fileName(point.name()) + "-run" + run + ".json";
                    List<String> args = new ArrayList<>(point.benchArgs());
                    args.addAll(List.of(
                            "--save-result",
                            "--save-detailed",
                            "--result-dir",
                            dir.resolve(POINTS).toString(),
                            "--result-filename",
                            file));
                    settingTasks.add(new Task(point, run, POINTS + "/" + file, parse(point, args)));
                }
            }
            tasks.add(settingTasks);
        }
        return tasks;
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

    private static List<Entry> inPlanOrder(List<List<Task>> tasks, Map<String, Entry> entries) {
        List<Entry> ordered = new ArrayList<>();
        tasks.forEach(setting -> setting.forEach(t -> {
            Entry e = entries.get(t.key());
            if (e != null) {
                ordered.add(e);
            }
        }));
        return ordered;
    }

    /** Written to a temporary file and moved, so an interrupted sweep never leaves half a sweep.json. */
    private static void save(Path dir, SweepFile file) throws IOException {
        Path tmp = dir.resolve(SWEEP_JSON + ".tmp");
        JSON.writeValue(tmp.toFile(), file);
        Files.move(tmp, dir.resolve(SWEEP_JSON), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * summary.md and summary.csv from the done runs' result files (and the chart at the end: it takes a
     * moment, which points should not wait for); returns the markdown.
     */
    private String writeSummary(Path dir, SweepPlan plan, Map<String, Entry> entries, boolean chart)
            throws IOException {
        List<SweepSummary.Row> rows = new ArrayList<>();
        for (SweepPlan.Point point : plan.points()) {
            List<JsonNode> runs = new ArrayList<>();
            for (int run = 1; run <= numRuns; run++) {
                Entry e = entries.get(point.name() + "#" + run);
                Path result = e == null ? null : dir.resolve(e.result());
                if (isDone(e) && Files.isRegularFile(result)) {
                    runs.add(JSON.readTree(result.toFile()));
                }
            }
            rows.add(new SweepSummary.Row(point.params(), runs));
        }
        SweepSummary summary = new SweepSummary(plan.swept(), rows, numRuns);
        String markdown = summary.markdown();
        Files.writeString(dir.resolve("summary.md"), markdown);
        Files.writeString(dir.resolve("summary.csv"), summary.csv());
        List<SweepChart.Point> chartPoints = summary.chartPoints();
        if (chart && !chartPoints.isEmpty()) {
            Files.write(
                    dir.resolve(CHART),
                    SweepChart.png(
                            "sweep " + dir.getFileName() + " against "
                                    + plan.swept().get(0),
                            plan.swept().get(0),
                            chartPoints,
                            SweepChart.DEFAULT_SIZE));
        }
        return markdown;
    }
}
