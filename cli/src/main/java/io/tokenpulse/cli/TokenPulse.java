package io.tokenpulse.cli;

import io.tokenpulse.cli.vllm.PythonNamespace;
import io.tokenpulse.runner.UserError;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/** The {@code tokenpulse} command: lists its subcommands and prints usage when given none. */
@Command(
        name = "tokenpulse",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description =
                "Benchmark LLM serving endpoints the way vLLM's serving benchmark does, as a Kafka telemetry pipeline.",
        subcommands = {
            CommandLine.HelpCommand.class,
            BenchCommand.class,
            AggregateCommand.class,
            ReplayCommand.class,
            RescoreCommand.class,
            ExportCommand.class,
            ChartCommand.class,
            CompareCommand.class,
            ReportCommand.class,
            PlatformCommand.class,
            PublishSpoolCommand.class,
            SimulateCommand.class,
            SweepCommand.class
        })
public final class TokenPulse implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--verbose",
            scope = ScopeType.INHERIT,
            description =
                    "Print stack traces of errors and the libraries' warnings (Kafka, DJL) that are hidden by default.")
    boolean verbose;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    public static void main(String[] args) {
        System.exit(newCommandLine().execute(args));
    }

    /** The configured command line, shared by {@link #main} and the tests. */
    static CommandLine newCommandLine() {
        TokenPulse top = new TokenPulse();
        CommandLine cmd = new CommandLine(top);
        // bench's 100-odd flags in labelled groups, the common ones first (--help-all describes all)
        BenchHelp.install(cmd.getSubcommands().get("bench"));
        // argparse semantics, as vLLM's users expect: a flag given twice takes the last value.
        cmd.setOverwrittenOptionsAllowed(true);
        // Python's float() spelling, as vLLM's flags take it: inf, Infinity, nan.
        cmd.registerConverter(Double.class, PythonNamespace::parsePythonFloat);
        cmd.registerConverter(Double.TYPE, PythonNamespace::parsePythonFloat);
        cmd.setExecutionStrategy(parseResult -> {
            if (top.verbose) {
                Logging.showLibraryWarnings();
            }
            return new CommandLine.RunLast().execute(parseResult);
        });
        cmd.setParameterExceptionHandler((ex, args) -> {
            CommandLine failed = ex.getCommandLine();
            PrintWriter err = failed.getErr();
            // one line, like every other mistake the user can fix
            err.println(failed.getCommandName() + ": " + ex.getMessage() + " (see '"
                    + failed.getCommandSpec().qualifiedName() + " --help')");
            return failed.getCommandSpec().exitCodeOnInvalidInput();
        });
        cmd.setExecutionExceptionHandler((ex, failed, parseResult) -> {
            PrintWriter err = failed.getErr();
            if (top.verbose) {
                ex.printStackTrace(err);
            }
            if (ex instanceof UserError userError) {
                err.println(failed.getCommandName() + ": " + userError.getMessage());
                return userError.exitCode();
            }
            err.println(failed.getCommandName() + ": " + describe(ex)
                    + (top.verbose ? "" : " (run with --verbose for details)"));
            return 1;
        });
        return cmd;
    }

    private static String describe(Throwable ex) {
        String message = ex.getMessage();
        return message == null ? ex.getClass().getSimpleName() : message;
    }
}
