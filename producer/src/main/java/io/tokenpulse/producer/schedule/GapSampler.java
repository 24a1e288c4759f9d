package io.tokenpulse.producer.schedule;

import org.apache.commons.rng.sampling.distribution.AhrensDieterMarsagliaTsangGammaSampler;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;
import org.apache.commons.rng.simple.RandomSource;

/**
 * Draws the gap before each request: gamma with shape {@code burstiness} and scale
 * {@code 1 / (rate * burstiness)}, so the mean gap is {@code 1 / rate} whatever the shape.
 * Not thread-safe: one sampler per schedule.
 */
final class GapSampler {

    private final double burstiness;
    /** Gamma(shape = burstiness, scale = 1); a sample times the scale is Gamma(shape, scale). */
    private final ContinuousSampler unitGamma;

    GapSampler(double burstiness, long seed) {
        this.burstiness = burstiness;
        // Numpy's generator cannot be reproduced here, so a seed gives the same schedule as
        // another run of this project, not the same as vLLM's.
        this.unitGamma = Double.isInfinite(burstiness)
                ? null
                : AhrensDieterMarsagliaTsangGammaSampler.of(
                        RandomSource.XO_RO_SHI_RO_128_PP.create(seed), burstiness, 1.0);
    }

    /** The gap in seconds before a request that arrives while {@code rate} is in force. */
    double gapSeconds(double rate) {
        if (Double.isInfinite(rate)) {
            return 0.0;
        }
        if (unitGamma == null) {
            // The gamma's limit as the shape grows: its variance vanishes, the mean stays.
            return 1.0 / rate;
        }
        return unitGamma.sample() / (rate * burstiness);
    }
}
