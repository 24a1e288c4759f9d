package io.tokenpulse.aggregator.definitions;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The two statistics: numpy's linear percentile ({@code np.percentile}, method "linear") and
 * GuideLLM's weighted nearest rank (vllm-project/guidellm src/guidellm/schemas/statistics.py
 * Percentiles.from_pdf, commit 03820eba), values worked by hand.
 */
class StatsTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "empty set shows 0       | ''      | 99 | 0.0",
                "single value            | 5       | 99 | 5.0",
                "linear between ranks    | 1;2;3;4 | 99 | 3.97", // position (4-1)*0.99 = 2.97
                "median of an even count | 1;2;3;4 | 50 | 2.5",
                "order does not matter   | 4;1;3;2 | 50 | 2.5",
            })
    void numpyInterpolatesLinearly(String why, String values, double p, double expected) {
        assertEquals(expected, Stats.linearPercentiles(parse(values), p)[0], 1e-12);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "empty set shows 0             | ''    | ''    | 0.5  | 0.0",
                "single value                  | 5     | 1     | 0.99 | 5.0",
                "even median is the lower one  | 1;2   | 1;1   | 0.5  | 1.0", // cdf [0.5, 1]: first >= 0.5 is index 0
                "p99 of two is the upper one   | 1;2   | 1;1   | 0.99 | 2.0",
                "weights move the rank         | 1;2   | 1;3   | 0.5  | 2.0", // cdf [0.25, 1]
                "equal values merge            | 2;1;2 | 1;1;1 | 0.5  | 2.0", // pdf {1: 1/3, 2: 2/3}
                "zero weights drop             | 1;2   | 0;1   | 0.5  | 2.0",
            })
    void guideLlmTakesTheWeightedNearestRank(String why, String values, String weights, double q, double expected) {
        assertEquals(expected, Stats.Pdf.of(parse(values), parse(weights)).nearestRank(q), 1e-12);
    }

    @Test
    void nearestRankAndInterpolationDifferOnAHundredValues() {
        double[] values = IntStream.rangeClosed(1, 100).asDoubleStream().toArray();
        double[] ones = new double[100];
        Arrays.fill(ones, 1);
        // numpy: 99 + 0.01*(100 - 99); GuideLLM: the 99th value (cumsum reaches 0.99 at index 98)
        assertEquals(99.01, Stats.linearPercentiles(values, 99)[0], 1e-9);
        assertEquals(99.0, Stats.Pdf.of(values, ones).nearestRank(0.99));
        assertEquals(50.5, Stats.linearPercentiles(values, 50)[0], 1e-9);
        assertEquals(50.0, Stats.Pdf.of(values, ones).nearestRank(0.5));
    }

    @Test
    void guideLlmMeanIsWeighted() {
        // (20*3 + 7.5*2 + 20*4)/9
        assertEquals(
                155.0 / 9,
                Stats.Pdf.of(new double[] {20, 7.5, 20}, new double[] {3, 2, 4}).mean(),
                1e-12);
    }

    private static double[] parse(String values) {
        return values == null || values.isBlank()
                ? new double[0]
                : Arrays.stream(values.split(";"))
                        .mapToDouble(Double::parseDouble)
                        .toArray();
    }
}
