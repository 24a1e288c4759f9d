package io.tokenpulse.cli.options;

import io.tokenpulse.producer.schedule.ArrivalSettings;
import io.tokenpulse.runner.UserError;
import picocli.CommandLine.Option;

/** How many requests are sent and when: vLLM's rate, burstiness, concurrency and ramp-up flags. */
public final class TrafficOptions {

    @Option(names = "--max-concurrency", description = "Maximum number of concurrent requests.")
    public Integer maxConcurrency;

    @Option(
            names = "--probe-request-rate",
            paramLabel = "R",
            description = "Also send R single-token probe requests per second (a short fixed prompt, max_tokens 1)"
                    + " outside --max-concurrency while the run sends; reported in their own 'Probe Requests'"
                    + " section (TTFT, E2EL) and never in the run's figures.")
    public Double probeRequestRate;

    @Option(
            names = "--num-prompts",
            defaultValue = "1000",
            description = "Number of prompts to process (default: ${DEFAULT-VALUE}).")
    public int numPrompts;

    @Option(
            names = "--duration-minutes",
            description = "Keep sending on the schedule for this many minutes instead of --num-prompts.")
    public Double durationMinutes;

    @Option(
            names = "--request-rate",
            defaultValue = "inf",
            description =
                    "Number of requests per second; inf sends all requests at time 0 (default: ${DEFAULT-VALUE}).")
    double requestRate;

    @Option(
            names = "--burstiness",
            defaultValue = "1.0",
            description =
                    "Burstiness factor of the request generation (1 = Poisson process, gamma otherwise) (default: ${DEFAULT-VALUE}).")
    double burstiness;

    @Option(
            names = "--num-warmups",
            defaultValue = "0",
            description =
                    "Requests sent before the timed run (copies of the initial test request, at most --max-concurrency at a time); not counted, not scored (default: ${DEFAULT-VALUE}).")
    public int numWarmups;

    @Option(
            names = "--seed",
            defaultValue = "0",
            description =
                    "Random seed of the run's draws: which dataset entries are sampled, random lengths, and the arrival times (default: ${DEFAULT-VALUE}).")
    public long seed;

    @Option(names = "--ramp-up-strategy", description = "linear or exponential ramp of the request rate.")
    String rampUpStrategy;

    @Option(
            names = "--ramp-up-start-rps",
            paramLabel = "RPS",
            description =
                    "The starting request rate for ramp-up, in requests/s. Needs to be specified when --ramp-up-strategy is used.")
    Double rampUpStartRps;

    @Option(
            names = "--ramp-up-end-rps",
            paramLabel = "RPS",
            description =
                    "The ending request rate for ramp-up, in requests/s, reached at the last request. Needs to be specified when --ramp-up-strategy is used.")
    Double rampUpEndRps;

    public ArrivalSettings arrivals() {
        if (durationMinutes == null && numPrompts < 1) {
            throw UserError.usage("--num-prompts must be >= 1, got " + numPrompts);
        }
        if (numWarmups < 0) {
            throw UserError.usage("--num-warmups must be >= 0, got " + numWarmups);
        }
        try {
            return rampUpStrategy == null
                    ? ArrivalSettings.constant(requestRate, burstiness, seed)
                    : ArrivalSettings.rampUp(
                            ArrivalSettings.RampUp.of(rampUpStrategy, rampUpStartRps, rampUpEndRps), burstiness, seed);
        } catch (IllegalArgumentException e) {
            throw UserError.usage(e.getMessage());
        }
    }
}
