package io.tokenpulse.runner;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * How a run ended: why its load stopped, what it produced, and whether a signal came while it ran or
 * printed (a command then exits as a shell reports a signalled command, 128 + the signal's number).
 *
 * @param reason why the load stopped
 * @param result the summary, request metrics, load counts and client CPU
 * @param saturated what a {@link EarlyStop} saw, when {@code reason} is {@link StopReason#SATURATED}
 * @param signalExitCode 130 after SIGINT, 143 after SIGTERM; empty when no signal came
 */
public record RunOutcome(StopReason reason, RunResult result, Optional<String> saturated, OptionalInt signalExitCode) {

    /** The exit code of a run stopped early by a signal (a shell's for SIGINT: 128 + 2). */
    public static final int INTERRUPTED = 130;

    /**
     * The exit code {@code bench} ends with: the signal's after one, 1 for a result scored without
     * its summary, 130 for a load stopped otherwise, 0 for a whole run or a saturation stop (the
     * point's finding, not an interruption).
     */
    public int exitCode() {
        if (signalExitCode.isPresent()) {
            return signalExitCode.getAsInt();
        }
        return switch (reason) {
            case NO_SUMMARY -> 1;
            case SIGNALLED -> INTERRUPTED;
            case COMPLETED, SATURATED -> 0;
        };
    }
}
