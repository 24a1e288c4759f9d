package io.tokenpulse.runner;

import io.tokenpulse.aggregator.report.ClientCpu;
import io.tokenpulse.aggregator.report.ClientTiming;
import java.net.URI;
import java.util.Optional;

/**
 * What the benchmarking process measured about itself during a run it sent (a stored run has none):
 * the CPU it took, with the warning when that may have slowed a server on this host, and whether it
 * kept its schedule, with the warning when it was the bottleneck.
 */
public record ClientReport(ClientCpu cpu, Optional<String> cpuWarning, ClientTiming timing) {

    /**
     * What a run this process sent measured about itself; the CPU warning only when the server may
     * share this host's cores ({@code serverInProcess}: the simulator's CPU is part of the client's).
     */
    public static ClientReport of(RunResult result, URI target, boolean serverInProcess) {
        return new ClientReport(
                result.cpu(),
                serverInProcess
                        ? Optional.empty()
                        : ClientCpuMeter.warning(
                                result.cpu(), target, Runtime.getRuntime().availableProcessors()),
                ClientTiming.of(
                        result.load().warmupRequests(),
                        result.load().warmConnections(),
                        result.load().sendLagP99Ms(),
                        result.load().started(),
                        result.load().ioThreadBusy()));
    }

    /** The lines after the block: CPU, then timing, then each warning that applies. */
    public String lines() {
        StringBuilder text = new StringBuilder(cpu.lines()).append(timing.lines());
        cpuWarning.ifPresent(w -> text.append(w).append('\n'));
        timing.warning().ifPresent(w -> text.append(w).append('\n'));
        return text.toString();
    }
}
