package io.tokenpulse.cli;

import io.tokenpulse.cli.report.RunOutput;
import io.tokenpulse.runner.RunPlan;
import io.tokenpulse.simulator.SimulatorServer;

/**
 * A bench run checked and ready to start: its plan, what to print and save after it, and with
 * --simulate the simulator serving it (closed with it).
 */
record PreparedRun(RunPlan plan, RunOutput output, SimulatorServer simulator) implements AutoCloseable {
    @Override
    public void close() {
        if (simulator != null) {
            simulator.close();
        }
    }
}
