package io.tokenpulse.cli;

import io.tokenpulse.aggregator.report.ClientCpu;
import io.tokenpulse.aggregator.report.ClientTiming;
import java.util.Optional;

/**
 * What the benchmarking process measured about itself during a run it sent (a stored run has none):
 * the CPU it took, with the warning when that may have slowed a server on this host, and whether it
 * kept its schedule, with the warning when it was the bottleneck.
 */
record ClientReport(ClientCpu cpu, Optional<String> cpuWarning, ClientTiming timing) {

    /** The lines after the block: CPU, then timing, then each warning that applies. */
    String lines() {
        StringBuilder text = new StringBuilder(cpu.lines()).append(timing.lines());
        cpuWarning.ifPresent(w -> text.append(w).append('\n'));
        timing.warning().ifPresent(w -> text.append(w).append('\n'));
        return text.toString();
    }
}
