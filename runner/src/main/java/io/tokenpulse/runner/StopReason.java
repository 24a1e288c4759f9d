package io.tokenpulse.runner;

/** Why a run's load ended, as its {@link RunOutcome} says. */
public enum StopReason {
    /** Every request was sent and finished, and the aggregator's summary came. */
    COMPLETED,
    /** Ctrl-C or SIGTERM (or another stop of the load): the summary covers what completed. */
    SIGNALLED,
    /** A {@link EarlyStop} found the server past saturation: the summary covers what completed. */
    SATURATED,
    /** No summary came: the result was scored from what the aggregator stored, marked incomplete. */
    NO_SUMMARY
}
