package io.tokenpulse.simulator.engine;

import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How many tokens a request without {@code ignore_eos} generates before its simulated EOS: a
 * geometric draw (an EOS chance of 1/mean after every token), capped by max_tokens. The n-th
 * request of a run always gets the same draw for the same seed, whatever thread serves it.
 *
 * @param meanTokens mean length before the cap; 0 for no EOS at all (every request runs to max_tokens)
 * @param seed       makes runs repeatable
 */
public record OutputLengths(int meanTokens, long seed) {

    public static final OutputLengths DEFAULT = new OutputLengths(128, 0);
    /** Never an early EOS: the deterministic profile's ground truth. */
    public static final OutputLengths UNTIL_MAX_TOKENS = new OutputLengths(0, 0);

    public OutputLengths {
        if (meanTokens < 0) {
            throw new IllegalArgumentException("mean output length must be >= 0 (0: no early EOS), got " + meanTokens);
        }
    }

    /** A sampler; one per server so that numbering starts at 0 with each run. */
    public Sampler sampler() {
        return new Sampler(this);
    }

    public static final class Sampler {
        private final OutputLengths lengths;
        private final AtomicLong drawn = new AtomicLong();

        private Sampler(OutputLengths lengths) {
            this.lengths = lengths;
        }

        /** Tokens to generate for the next request, 1 ..= maxTokens. */
        public int next(int maxTokens) {
            if (lengths.meanTokens() == 0) {
                return maxTokens;
            }
            SplittableRandom random =
                    new SplittableRandom(lengths.seed() * 0x9E3779B97F4A7C15L + drawn.getAndIncrement());
            double p = 1.0 / lengths.meanTokens();
            // inverse CDF of the geometric distribution on 1, 2, ...
            long tokens = p >= 1 ? 1 : 1 + (long) Math.floor(Math.log(1 - random.nextDouble()) / Math.log(1 - p));
            return (int) Math.min(maxTokens, tokens);
        }
    }
}
