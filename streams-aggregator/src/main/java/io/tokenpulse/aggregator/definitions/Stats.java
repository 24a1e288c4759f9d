package io.tokenpulse.aggregator.definitions;

import java.util.Arrays;
import java.util.Map;

/**
 * The two statistics the tools use: numpy's ({@code np.mean}, {@code np.median},
 * {@code np.percentile}, linear interpolation between ranks) and GuideLLM's weighted nearest rank.
 * Empty input gives 0, as vLLM's {@code np.mean(x or 0)} does.
 */
final class Stats {

    private Stats() {}

    static double mean(double[] values) {
        return values.length == 0 ? 0 : Arrays.stream(values).sum() / values.length;
    }

    /**
     * {@code np.percentile(values, p)} for each p, default method "linear": position (n − 1)·p/100
     * between the sorted values ({@code np.median} is p = 50). One sort for all of them: a large run's
     * ITLs are millions of values.
     */
    static double[] linearPercentiles(double[] values, double... percentiles) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        double[] out = new double[percentiles.length];
        for (int i = 0; i < out.length && sorted.length > 0; i++) {
            double position = (sorted.length - 1) * percentiles[i] / 100.0;
            int below = (int) Math.floor(position);
            int above = Math.min(below + 1, sorted.length - 1);
            double fraction = position - below;
            out[i] = sorted[below] + (sorted[above] - sorted[below]) * fraction;
        }
        return out;
    }

    /** Mean, median and P99 of values by numpy's rules into the family's three rows. */
    static void putNumpy(Map<ScoreRow, Double> into, ScoreRow.Family family, double[] values) {
        ScoreRow[] rows = ScoreRow.distribution(family);
        double[] medianAndP99 = linearPercentiles(values, 50, 99);
        into.put(rows[0], mean(values));
        into.put(rows[1], medianAndP99[0]);
        into.put(rows[2], medianAndP99[1]);
    }

    /** GuideLLM's mean, median and P99 of weighted values ({@link Pdf}) into the family's three rows. */
    static void putGuideLlm(Map<ScoreRow, Double> into, ScoreRow.Family family, double[] values, double[] weights) {
        ScoreRow[] rows = ScoreRow.distribution(family);
        Pdf pdf = Pdf.of(values, weights);
        into.put(rows[0], pdf.mean());
        into.put(rows[1], pdf.nearestRank(0.5));
        into.put(rows[2], pdf.nearestRank(0.99));
    }

    /**
     * GuideLLM's {@code DistributionSummary.from_values} with weights: equal values merge (weights
     * summed), zero weights drop, probabilities are weight/Σweight; the mean is Σvalue·probability
     * and a percentile q is the value at {@code searchsorted(cumsum(probabilities), q, side="left")},
     * nearest rank without interpolation (the median is q = 0.5 by the same rule).
     * vllm-project/guidellm src/guidellm/schemas/statistics.py, {@code Percentiles.from_pdf} and
     * {@code DistributionSummary.from_values}, commit 03820eba.
     *
     * @param values        sorted distinct values
     * @param probabilities each value's probability
     */
    record Pdf(double[] values, double[] probabilities) {

        /** Built once per distribution: it sorts every value (boxed, stably: equal values' weights add in input order). */
        static Pdf of(double[] values, double[] weights) {
            if (values.length != weights.length) {
                throw new IllegalArgumentException(values.length + " values but " + weights.length + " weights");
            }
            Integer[] order = new Integer[values.length];
            for (int i = 0; i < order.length; i++) {
                order[i] = i;
            }
            Arrays.sort(order, (a, b) -> Double.compare(values[a], values[b]));
            double[] distinct = new double[values.length];
            double[] summed = new double[values.length];
            int n = 0;
            for (int i : order) {
                if (n > 0 && distinct[n - 1] == values[i]) {
                    summed[n - 1] += weights[i];
                } else {
                    distinct[n] = values[i];
                    summed[n] = weights[i];
                    n++;
                }
            }
            double total = 0;
            int kept = 0;
            for (int i = 0; i < n; i++) {
                if (summed[i] > 0) {
                    distinct[kept] = distinct[i];
                    summed[kept] = summed[i];
                    total += summed[i];
                    kept++;
                }
            }
            double[] probabilities = new double[kept];
            for (int i = 0; i < kept; i++) {
                probabilities[i] = summed[i] / total;
            }
            return new Pdf(Arrays.copyOf(distinct, kept), probabilities);
        }

        double mean() {
            double mean = 0;
            for (int i = 0; i < values.length; i++) {
                mean += values[i] * probabilities[i];
            }
            return mean;
        }

        double nearestRank(double q) {
            if (values.length == 0) {
                return 0;
            }
            double cdf = 0;
            for (int i = 0; i < values.length; i++) {
                cdf += probabilities[i];
                if (cdf >= q) {
                    return values[i];
                }
            }
            // Rounding left the last cumulative probability just under q; numpy would index past the end.
            return values[values.length - 1];
        }
    }

    static double ms(long ns) {
        return ns / 1e6;
    }

    static double ms(double ns) {
        return ns / 1e6;
    }

    static double seconds(long ns) {
        return ns / 1e9;
    }
}
