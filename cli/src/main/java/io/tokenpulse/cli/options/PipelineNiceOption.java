package io.tokenpulse.cli.options;

import io.tokenpulse.runner.PipelinePriority;
import picocli.CommandLine.Option;

/** {@code --pipeline-nice}: the CPU priority of the bench process's pipeline threads ({@link PipelinePriority}). */
public final class PipelineNiceOption {

    @Option(
            names = PipelinePriority.OPTION,
            paramLabel = "N",
            defaultValue = "10",
            description = "How many Linux nice steps (0-19) below the HTTP client's timing threads the bench"
                    + " process's pipeline threads run once the load begins: embedded broker and registry,"
                    + " in-process aggregator, publisher, server-metrics scraper, /metrics. On a shared host"
                    + " the pipeline then yields"
                    + " the cores to the timing threads and to the server, and catches up when they are free."
                    + " 0 runs everything at one priority. Default: ${DEFAULT-VALUE}.")
    public int nice;

    /** A nice value outside 0-19 is a usage error before anything starts. */
    public void validate() {
        PipelinePriority.check(nice);
    }
}
