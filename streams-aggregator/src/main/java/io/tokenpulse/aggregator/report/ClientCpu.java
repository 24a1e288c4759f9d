package io.tokenpulse.aggregator.report;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * The CPU the benchmarking process itself used (all its threads: client, publisher, and the embedded
 * broker and aggregator when they run in it): TokenPulse's own result keys, and lines printed after
 * the block. A client that takes cores from a server on the same host slows what it measures.
 *
 * @param clientStartupCpuS   CPU seconds from the process start until the load began (its health
 *                            check and initial test request, then the run, follow)
 * @param clientCpuCores      CPU seconds per second from then until the last response
 * @param clientCpuUsPerEvent CPU microseconds in that time per streamed event; NaN when none
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ClientCpu(double clientStartupCpuS, double clientCpuCores, double clientCpuUsPerEvent) {

    /**
     * @param startupCpuNs process CPU when the load began
     * @param runCpuNs     process CPU from then until the last response
     * @param runWallNs    wall time of the same span
     * @param events       streamed events received in it
     */
    public static ClientCpu of(long startupCpuNs, long runCpuNs, long runWallNs, long events) {
        return new ClientCpu(
                startupCpuNs / 1e9,
                runWallNs > 0 ? (double) runCpuNs / runWallNs : Double.NaN,
                events > 0 ? runCpuNs / 1e3 / events : Double.NaN);
    }

    /** The share of a machine of {@code cores} processors the client took during the run. */
    public double machineShare(int cores) {
        return clientCpuCores / cores;
    }

    /** The lines printed after the block, in its layout. */
    public String lines() {
        StringBuilder text = new StringBuilder();
        ConsoleReport.decimal(text, "Client CPU before 1st request (s):", clientStartupCpuS);
        ConsoleReport.decimal(text, "Client CPU during the run (cores):", clientCpuCores);
        ConsoleReport.decimal(text, "Client CPU per streamed event (us):", clientCpuUsPerEvent);
        return text.toString();
    }
}
