package io.tokenpulse.cli.options;

import io.tokenpulse.simulator.faults.FaultPlan;
import picocli.CommandLine.Option;

/** {@code simulate}'s faults: error answers, connection resets, stalls and broken events, each by probability. */
public final class SimulatorFaultOptions {

    @Option(names = "--fault-500-rate", defaultValue = "0", description = "Probability of an HTTP 500 answer.")
    double status500Rate;

    @Option(names = "--fault-503-rate", defaultValue = "0", description = "Probability of an HTTP 503 answer.")
    double status503Rate;

    @Option(names = "--fault-429-rate", defaultValue = "0", description = "Probability of an HTTP 429 answer.")
    double status429Rate;

    @Option(
            names = "--retry-after",
            defaultValue = "1",
            description = "Retry-After seconds of a 429 (default: ${DEFAULT-VALUE}).")
    int retryAfterSeconds;

    @Option(
            names = "--fault-reset-rate",
            defaultValue = "0",
            description = "Probability of a connection reset mid-stream.")
    double resetRate;

    @Option(
            names = "--reset-after",
            defaultValue = "3",
            description = "Events sent before a reset (default: ${DEFAULT-VALUE}).")
    int resetAfterEvents;

    @Option(
            names = "--fault-stall-rate",
            defaultValue = "0",
            description = "Probability of a stall after the first event.")
    double stallRate;

    @Option(names = "--stall-ms", defaultValue = "5000", description = "Length of a stall (default: ${DEFAULT-VALUE}).")
    long stallMs;

    @Option(
            names = "--fault-malformed-rate",
            defaultValue = "0",
            description = "Probability of an event with invalid JSON.")
    double malformedRate;

    @Option(
            names = "--fault-oversized-rate",
            defaultValue = "0",
            description = "Probability of an event larger than 10 MiB.")
    double oversizedRate;

    @Option(
            names = "--fault-split-utf8-rate",
            defaultValue = "0",
            description = "Probability that every event is written in two parts split inside a UTF-8 character.")
    double splitUtf8Rate;

    @Option(
            names = "--fault-no-done-rate",
            defaultValue = "0",
            description = "Probability that [DONE] is left out (/v1/responses, /v1/messages: the closing event).")
    double noDoneRate;

    @Option(
            names = "--tokens-per-event",
            defaultValue = "1",
            description = "Tokens in each streamed event (default: ${DEFAULT-VALUE}).")
    int tokensPerEvent;

    @Option(names = "--role-only-first", description = "Start every stream with an event that carries no text.")
    boolean roleOnlyFirst;

    /** The simulator's fault plan, drawn with {@code seed} (--seed); bad values fail in {@link FaultPlan}. */
    public FaultPlan plan(long seed) {
        return new FaultPlan(
                status500Rate,
                status503Rate,
                status429Rate,
                retryAfterSeconds,
                resetRate,
                resetAfterEvents,
                stallRate,
                stallMs,
                malformedRate,
                oversizedRate,
                splitUtf8Rate,
                noDoneRate,
                tokensPerEvent,
                roleOnlyFirst,
                seed);
    }
}
