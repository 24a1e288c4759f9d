package io.tokenpulse.cli.options;

import io.tokenpulse.runner.UserError;
import io.tokenpulse.runner.sweep.SweepRows;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Option;

/** {@code sweep}'s {@code --bench-params} and {@code --num-runs}: the points besides the listed flags, and how often each runs. */
public final class SweepPointOptions {

    @Option(
            names = "--bench-params",
            paramLabel = "FILE",
            description =
                    "JSON list of bench flag maps, or an object of name -> flag map (vLLM's format): one point per row, times the listed flags.")
    Path benchParams;

    // %% is picocli's escape for a literal %: its help formats descriptions
    @Option(
            names = "--num-runs",
            defaultValue = "1",
            description =
                    "Runs per point; the summary shows their mean and 95 %% confidence interval (default: ${DEFAULT-VALUE}).")
    int numRuns;

    /** Fewer than one run per point is a usage error. */
    public void validate() {
        if (numRuns < 1) {
            throw UserError.usage("--num-runs must be >= 1, got " + numRuns);
        }
    }

    /** How often each point runs (checked by {@link #validate} first). */
    public int numRuns() {
        return numRuns;
    }

    /** The rows of --bench-params; none without it. A bad file throws IllegalArgumentException. */
    public List<SweepRows.Row> rows() {
        return benchParams == null ? List.of() : SweepRows.read("--bench-params", benchParams);
    }
}
