package io.tokenpulse.cli;

import io.tokenpulse.cli.options.SearchOptions;
import io.tokenpulse.cli.options.ServeOptions;
import io.tokenpulse.cli.options.SweepFolderOptions;
import io.tokenpulse.cli.options.SweepPointOptions;
import io.tokenpulse.runner.BenchHost;
import io.tokenpulse.runner.UserError;
import io.tokenpulse.runner.sweep.SearchPlan;
import io.tokenpulse.runner.sweep.SweepFile;
import io.tokenpulse.runner.sweep.SweepOutcome;
import io.tokenpulse.runner.sweep.SweepPoint;
import io.tokenpulse.runner.sweep.SweepRunner;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
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

    @Mixin
    SweepPointOptions points;

    @Mixin
    SweepFolderOptions folder;

    @Mixin
    ServeOptions serve;

    @Mixin
    SearchOptions search;

    /** Every other argument is a bench flag, as a value or a list. */
    @Unmatched
    List<String> benchArgs = new ArrayList<>();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintStream out = System.out;
        Path dir = folder.folder();
        SweepFile file = folder.previous(dir);
        List<String> args = ownArgs();
        if (folder.resuming() && file.args() == null && args.isEmpty()) {
            throw UserError.usage("--resume " + dir + ": its " + SweepFile.NAME + " was written by an older version"
                    + " that did not keep the sweep's flags; give them again beside --resume");
        }
        if (folder.resuming() && file.args() != null) {
            if (args.isEmpty()) {
                out.println("Resuming " + dir + " with its flags: " + String.join(" ", file.args()));
                return stored(file.args(), dir).call();
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
                serve.command(),
                BenchPoint::parse,
                (saved, done) -> SweepSummaryFiles.write(dir, saved, done, points.numRuns(), false),
                out,
                System.err);
        SweepOutcome outcome = searchPlan == null
                ? runner.grid(plan.settings(), points.numRuns())
                : runner.search(plan.settings().get(0), searchPlan);
        String table = SweepSummaryFiles.write(dir, outcome.file(), outcome.points(), points.numRuns(), true);
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
        SearchPlan searchPlan = search.plan(
                plan.swept(), plan.points().get(0).benchArgs(), plan.points().size() == 1 && points.numRuns() == 1);
        if (searchPlan != null) {
            SweepPoint first = searchPlan.probe(searchPlan.start());
            // the verdict reads the SLO's P99s from each point's result: its percentile flags must keep them
            BenchPoint.parse(first, first.benchArgs())
                    .bench()
                    .reporting
                    .require(searchPlan.slo().percentileMetrics(), 99);
        }
        return searchPlan;
    }

    private SweepPlan plan() {
        points.validate();
        serve.validate();
        folder.validate();
        try {
            return SweepPlan.of(benchLine().getCommandSpec(), benchArgs, points.rows(), serve.rows());
        } catch (IllegalArgumentException e) {
            throw UserError.usage(e.getMessage());
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
            if (name.equals(SweepFolderOptions.RESUME) || name.equals(SweepFolderOptions.OUTPUT_DIR)) {
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

    /** The sweep sweep.json's {@code args} describe, continuing in this one's --resume folder {@code dir}. */
    private SweepCommand stored(List<String> args, Path dir) {
        List<String> command = new ArrayList<>(List.of("sweep"));
        command.addAll(args);
        command.addAll(List.of(SweepFolderOptions.RESUME, dir.toString()));
        try {
            return (SweepCommand) TokenPulse.newCommandLine()
                    .parseArgs(command.toArray(String[]::new))
                    .subcommand()
                    .commandSpec()
                    .userObject();
        } catch (CommandLine.ParameterException e) {
            throw UserError.usage(
                    "--resume " + dir + ": the flags in its " + SweepFile.NAME + " no longer parse: " + e.getMessage());
        }
    }

    /** A bench command line configured as {@code tokenpulse bench}'s (argparse's last-wins, Python floats). */
    private static CommandLine benchLine() {
        return TokenPulse.newCommandLine().getSubcommands().get("bench");
    }
}
