package io.tokenpulse.cli;

import io.tokenpulse.cli.vllm.BenchNamespace;
import io.tokenpulse.cli.vllm.PythonNamespace;
import io.tokenpulse.runner.BenchHost;
import io.tokenpulse.runner.EarlyStop;
import io.tokenpulse.runner.HostSetup;
import io.tokenpulse.runner.RunOutcome;
import io.tokenpulse.runner.UserError;
import io.tokenpulse.runner.sweep.PointBench;
import io.tokenpulse.runner.sweep.SweepPoint;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/**
 * A sweep point's flags parsed as {@code tokenpulse bench} parses them, run as it runs: what the
 * sweep runner knows of a point, without its options.
 */
record BenchPoint(BenchCommand bench) implements PointBench {

    /** Parses {@code flags} through the top command, as 'tokenpulse bench' does (a subcommand alone lacks its parent's options). */
    static BenchPoint parse(SweepPoint point, List<String> flags) {
        List<String> command = new ArrayList<>(List.of("bench"));
        command.addAll(flags);
        try {
            return new BenchPoint((BenchCommand) TokenPulse.newCommandLine()
                    .parseArgs(command.toArray(String[]::new))
                    .subcommand()
                    .commandSpec()
                    .userObject());
        } catch (CommandLine.ParameterException e) {
            throw UserError.usage("point " + point.name() + ": " + e.getMessage());
        }
    }

    @Override
    public HostSetup host() {
        return bench.hostSetup();
    }

    @Override
    public boolean simulated() {
        return bench.simulate.simulate;
    }

    @Override
    public URI health() {
        return bench.target.baseUrl().resolve("/health");
    }

    @Override
    public Duration readyTimeout() {
        return bench.target.readyTimeout();
    }

    @Override
    public Ready prepare(PrintStream out) throws InterruptedException {
        out.println(PythonNamespace.format(bench.spec, BenchNamespace.ORDER));
        PreparedRun prepared = bench.prepare(out);
        return new Ready() {
            @Override
            public String runId() {
                return prepared.plan().load().runId();
            }

            @Override
            public RunOutcome runOn(BenchHost host, PrintStream runOut, EarlyStop early)
                    throws IOException, InterruptedException {
                return bench.runOn(prepared, host, runOut, early);
            }

            @Override
            public void close() {
                prepared.close();
            }
        };
    }
}
