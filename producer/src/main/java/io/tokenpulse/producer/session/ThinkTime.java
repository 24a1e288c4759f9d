package io.tokenpulse.producer.session;

import java.util.SplittableRandom;

/**
 * How long a session's user thinks between an answer and the next turn ({@code --think-time-ms}):
 * a fixed number of milliseconds ({@code 500}), an exponential distribution of that mean
 * ({@code exp:500}, a user who answers at a constant rate, as Poisson arrivals), or uniform between two
 * bounds ({@code uniform:200-800}).
 */
public sealed interface ThinkTime {

    /** No think time: the next turn goes as soon as the answer ended. */
    ThinkTime NONE = new Fixed(0);

    /** One draw, in nanoseconds. */
    long sampleNs(SplittableRandom random);

    /** The same time every turn. */
    record Fixed(double ms) implements ThinkTime {
        @Override
        public long sampleNs(SplittableRandom random) {
            return Math.round(ms * 1_000_000);
        }

        @Override
        public String toString() {
            return format(ms);
        }
    }

    /** Exponential with mean {@code meanMs}. */
    record Exponential(double meanMs) implements ThinkTime {
        @Override
        public long sampleNs(SplittableRandom random) {
            // 1 - u is in (0, 1]: the logarithm stays finite
            return Math.round(-Math.log(1 - random.nextDouble()) * meanMs * 1_000_000);
        }

        @Override
        public String toString() {
            return "exp:" + format(meanMs);
        }
    }

    /** Uniform in {@code [lowMs, highMs]}. */
    record Uniform(double lowMs, double highMs) implements ThinkTime {
        @Override
        public long sampleNs(SplittableRandom random) {
            return Math.round((lowMs + random.nextDouble() * (highMs - lowMs)) * 1_000_000);
        }

        @Override
        public String toString() {
            return "uniform:" + format(lowMs) + "-" + format(highMs);
        }
    }

    /**
     * Reads {@code --think-time-ms}.
     *
     * @throws IllegalArgumentException with one line saying which forms are accepted
     */
    static ThinkTime parse(String text) {
        String value = text.strip();
        try {
            if (value.startsWith("exp:")) {
                return new Exponential(nonNegative(value.substring(4)));
            }
            if (value.startsWith("uniform:")) {
                String[] bounds = value.substring(8).split("-", -1);
                if (bounds.length == 2) {
                    double low = nonNegative(bounds[0]);
                    double high = nonNegative(bounds[1]);
                    if (high >= low) {
                        return new Uniform(low, high);
                    }
                }
                throw new NumberFormatException();
            }
            return new Fixed(nonNegative(value));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--think-time-ms '" + text + "' is not a think time; give milliseconds"
                    + " >= 0 as a fixed number (500), an exponential mean (exp:500) or uniform bounds, low first"
                    + " (uniform:200-800)");
        }
    }

    private static double nonNegative(String number) {
        double value = Double.parseDouble(number.strip());
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new NumberFormatException();
        }
        return value;
    }

    private static String format(double ms) {
        return ms == Math.rint(ms) ? Long.toString((long) ms) : Double.toString(ms);
    }
}
