package io.tokenpulse.producer.schedule;

import java.util.Locale;

/**
 * How requests arrive (docs/metrics.md, arrival process): the flags {@code --request-rate},
 * {@code --burstiness}, {@code --ramp-up-*} and {@code --seed}.
 *
 * <p>Rates are requests per second; {@link Double#POSITIVE_INFINITY} stands for {@code inf}.
 * Impossible combinations are rejected with an {@link IllegalArgumentException} whose one-line
 * message names the flag to change.
 *
 * @param requestRate requests per second, {@code > 0}; infinity sends every request at offset 0.
 *     Must be infinity (the flag's default) when {@code rampUp} is given, as in vLLM.
 * @param burstiness gamma shape of the gaps, {@code > 0}; 1 is a Poisson process, infinity
 *     spaces requests evenly
 * @param rampUp the ramp-up of the rate, or null for a constant rate
 * @param seed seeds the gap sampler: the same seed gives the same schedule
 */
public record ArrivalSettings(double requestRate, double burstiness, RampUp rampUp, long seed) {

    public ArrivalSettings {
        if (!(requestRate > 0)) {
            throw new IllegalArgumentException("--request-rate must be > 0 or inf, got " + requestRate);
        }
        if (!(burstiness > 0)) {
            throw new IllegalArgumentException("--burstiness must be > 0 or inf, got " + burstiness);
        }
        if (rampUp != null && requestRate != Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException("--request-rate cannot be combined with --ramp-up-strategy: the ramp-up"
                    + " sets the rate; remove --request-rate");
        }
    }

    /** A constant rate with the given burstiness. */
    public static ArrivalSettings constant(double requestRate, double burstiness, long seed) {
        return new ArrivalSettings(requestRate, burstiness, null, seed);
    }

    /** A ramp-up from {@code rampUp.startRps()} to {@code rampUp.endRps()}. */
    public static ArrivalSettings rampUp(RampUp rampUp, double burstiness, long seed) {
        return new ArrivalSettings(Double.POSITIVE_INFINITY, burstiness, rampUp, seed);
    }

    /** The rate in force at {@code progress} (0 at the first request, 1 at the last). */
    double rateAt(double progress) {
        return rampUp == null ? requestRate : rampUp.rateAt(progress);
    }

    /**
     * A rate that moves from {@code startRps} to {@code endRps} over the run, as vLLM's
     * {@code --ramp-up-strategy}: linear {@code start + (end - start) * p}, exponential
     * {@code start * (end / start)^p}, for progress {@code p} from 0 to 1.
     *
     * <p>vLLM accepts a start of 0 for the linear strategy and then fails on its first request
     * (rate 0); here it is rejected up front.
     */
    public record RampUp(Strategy strategy, double startRps, double endRps) {

        public RampUp {
            if (strategy == null) {
                throw new IllegalArgumentException("--ramp-up-strategy must be linear or exponential");
            }
            if (!(startRps > 0) || Double.isInfinite(startRps)) {
                throw new IllegalArgumentException("--ramp-up-start-rps must be a finite number > 0, got " + startRps);
            }
            if (!(endRps >= startRps) || Double.isInfinite(endRps)) {
                throw new IllegalArgumentException("--ramp-up-end-rps must be finite and >= " + "--ramp-up-start-rps ("
                        + startRps + "), got " + endRps);
            }
        }

        /**
         * Builds a ramp-up from the three flags as given; null rps values are the user
         * forgetting one of them.
         */
        public static RampUp of(String strategy, Double startRps, Double endRps) {
            if (startRps == null || endRps == null) {
                throw new IllegalArgumentException(
                        "--ramp-up-strategy needs both " + "--ramp-up-start-rps and --ramp-up-end-rps");
            }
            return new RampUp(Strategy.fromFlag(strategy), startRps, endRps);
        }

        double rateAt(double progress) {
            return switch (strategy) {
                case LINEAR -> startRps + (endRps - startRps) * progress;
                case EXPONENTIAL -> startRps * Math.pow(endRps / startRps, progress);
            };
        }
    }

    /** The values of {@code --ramp-up-strategy}. */
    public enum Strategy {
        LINEAR,
        EXPONENTIAL;

        /** Parses the flag value ({@code linear} or {@code exponential}). */
        public static Strategy fromFlag(String value) {
            if (value != null) {
                for (Strategy s : values()) {
                    if (s.name().toLowerCase(Locale.ROOT).equals(value)) {
                        return s;
                    }
                }
            }
            throw new IllegalArgumentException("--ramp-up-strategy must be linear or exponential, got " + value);
        }
    }
}
