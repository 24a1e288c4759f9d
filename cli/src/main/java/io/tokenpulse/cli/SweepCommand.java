package io.tokenpulse.cli;

import io.tokenpulse.runner.BenchHost;
import io.tokenpulse.runner.RunIds;
import io.tokenpulse.runner.UserError;
import io.tokenpulse.runner.sweep.SaturationSearch;
import io.tokenpulse.runner.sweep.SearchPlan;
import io.tokenpulse.runner.sweep.SearchSlo;
import io.tokenpulse.runner.sweep.SweepFile;
import io.tokenpulse.runner.sweep.SweepOutcome;
import io.tokenpulse.runner.sweep.SweepPoint;
import io.tokenpulse.runner.sweep.SweepRows;
import io.tokenpulse.runner.sweep.SweepRunner;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
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
 * id. The command checks its options, builds the points ({@link SweepPlan}) or the search ({@link
 * SearchPlan}) and hands them to the {@link SweepRunner} with the parsing of a point's bench flags
 * ({@link BenchPoint}); the runner writes {@code DIR/sweep.json} after every point (so {@code --resume
 * DIR} skips what is done) and each point's vLLM result file under {@code DIR/points/}; the summary
 * table goes to {@code DIR/summary.md} and {@code DIR/summary.csv} ({@link SweepSummaryFiles}).
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

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

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

    @Override
    public Integer call() throws Exception {
        PrintStream out = System.out;
        Path dir = folder();
        SweepFile file = previous(dir);
        List<String> args = ownArgs();
        if (resume != null && file.args() == null && args.isEmpty()) {
            throw UserError.usage("--resume " + dir + ": its " + SweepFile.NAME + " was written by an older version"
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
        SearchPlan searchPlan = searchPlan(plan);
        List<String> swept = searchPlan == null ? plan.swept() : List.of(searchPlan.param());
        SweepRunner runner = new SweepRunner(
                dir,
                new SweepFile(file.sweepId(), args, swept, file.points(), null),
                serveCmd,
                BenchPoint::parse,
                (saved, points) -> SweepSummaryFiles.write(dir, saved, points, numRuns, false),
                out,
                System.err);
        SweepOutcome outcome = searchPlan == null
                ? runner.grid(plan.settings(), numRuns)
                : runner.search(plan.settings().get(0), searchPlan);
        String table = SweepSummaryFiles.write(dir, outcome.file(), outcome.points(), numRuns, true);
        out.println();
        out.print(table);
        out.println("Sweep saved to " + dir.toAbsolutePath().normalize() + " (" + SweepFile.NAME + ", "
                + SweepRunner.POINTS + "/, summary.md, summary.csv)");
        if (outcome.interrupted()) {
            out.println("Interrupted: run 'tokenpulse sweep --resume " + dir + "' to finish the sweep.");
        }
        return outcome.exitCode();
    }

    /** The search's set-up from --search and --slo, checked before anything starts; null without --search. */
    private SearchPlan searchPlan(SweepPlan plan) {
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
            SearchPlan searchPlan = new SearchPlan(
                    flag,
                    baseArgs,
                    parsed,
                    new SaturationSearch(search.equals("concurrency"), searchStart, searchFactor, searchMaxPoints),
                    searchStart,
                    parsed.ttftMs().map(ms -> ms * searchStopMargin).orElse(Double.NaN),
                    searchStopWindows,
                    searchMaxPoints);
            SweepPoint first = searchPlan.probe(searchStart);
            // the verdict reads the SLO's P99s from each point's result: its percentile flags must keep them
            BenchPoint.parse(first, first.benchArgs()).bench().reporting.require(parsed.percentileMetrics(), 99);
            return searchPlan;
        } catch (IllegalArgumentException e) {
            throw UserError.usage(e.getMessage());
        }
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
        Path json = dir.resolve(SweepFile.NAME);
        if (resume == null) {
            if (Files.exists(json)) {
                throw UserError.usage(dir + " already holds a sweep; continue it with --resume " + dir
                        + " or pass another --output-dir");
            }
            return new SweepFile("sweep-" + RunIds.next(), null, List.of(), List.of(), null);
        }
        if (!Files.isRegularFile(json)) {
            throw UserError.usage(
                    "--resume " + dir + ": no " + SweepFile.NAME + " there; pass the folder a sweep wrote");
        }
        try {
            return SweepFile.read(json);
        } catch (IOException e) {
            throw UserError.usage("--resume " + dir + ": " + SweepFile.NAME + " cannot be read ("
                    + e.getMessage().lines().findFirst().orElse("") + ")");
        }
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
            throw UserError.usage("--resume " + resume + ": the flags in its " + SweepFile.NAME + " no longer parse: "
                    + e.getMessage());
        }
    }

    /** A bench command line configured as {@code tokenpulse bench}'s (argparse's last-wins, Python floats). */
    private static CommandLine benchLine() {
        return TokenPulse.newCommandLine().getSubcommands().get("bench");
    }
}
