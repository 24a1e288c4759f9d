package io.tokenpulse.runner.sweep;

import io.tokenpulse.runner.BenchHost;
import io.tokenpulse.runner.EarlyStop;
import io.tokenpulse.runner.HostSetup;
import io.tokenpulse.runner.RunOutcome;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;

/**
 * One sweep point's bench flags, parsed and checked by the command that knows the options: what the
 * {@link SweepRunner} needs of a point. The flags that shape the host, the server and the pipeline cannot
 * vary within a sweep, so every point of a sweep answers the first four alike.
 */
public interface PointBench {

    /** The pipeline and host the sweep's points share (the first point that runs starts them). */
    HostSetup host();

    /** Whether the point benchmarks the built-in simulator (--simulate), which --serve-cmd would replace. */
    boolean simulated();

    /** Where the benchmarked server answers 200 once ready: --serve-cmd's server is awaited there. */
    URI health();

    /** How long --serve-cmd's server may take to answer (--ready-check-timeout-sec). */
    Duration readyTimeout();

    /**
     * Prints the point's configuration (bench's Namespace line), checks what parsing could not, and
     * starts what its run needs (--simulate's simulator).
     */
    Ready prepare(PrintStream out) throws InterruptedException;

    /** A point's run ready to start; closing it stops what {@link #prepare} started. */
    interface Ready extends AutoCloseable {

        String runId();

        /**
         * Runs on {@code host}, printing the block and saving the result file as {@code bench} does;
         * {@code early}, when not null, stops the load past saturation.
         */
        RunOutcome runOn(BenchHost host, PrintStream out, EarlyStop early) throws IOException, InterruptedException;

        @Override
        void close();
    }
}
