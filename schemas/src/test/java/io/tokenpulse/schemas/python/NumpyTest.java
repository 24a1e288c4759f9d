package io.tokenpulse.schemas.python;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NumpyTest {

    private static double[] sorted(String values) {
        double[] v = values.isBlank()
                ? new double[0]
                : Arrays.stream(values.split(";"))
                        .mapToDouble(Double::parseDouble)
                        .toArray();
        Arrays.sort(v);
        return v;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "empty set shows 0              | ''              | 99   | 0.0",
                "single value                   | 5               | 99   | 5.0",
                "two values, P50 halfway        | 1;2             | 50   | 1.5",
                "two values, P99                | 1;2             | 99   | 1.99",
                "linear between ranks           | 1;2;3;4         | 99   | 3.97", // position 3*0.99 = 2.97
                "P0 is the minimum              | 1;2;3;4         | 0    | 1.0",
                "P100 is the maximum            | 1;2;3;4         | 100  | 4.0",
                "P90 of 4 values                | 1;2;3;4         | 90   | 3.7", // position 2.7
                "unsorted input, P90            | 3;1;4;1;5;9;2;6 | 90   | 6.9", // position 6.3: 6 + 0.3*3
                "fractional percentile          | 1;2;3;4         | 99.9 | 3.997",
            })
    void percentileFollowsLinearInterpolation(String why, String values, double p, double expected) {
        assertThat(Numpy.percentile(sorted(values), p)).isCloseTo(expected, org.assertj.core.data.Offset.offset(1e-12));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "empty set shows 0        | ''              | 0.0 | 0.0 | 0.0",
                "one value                | 5               | 5.0 | 5.0 | 0.0",
                "two values               | 1;2             | 1.5 | 1.5 | 0.5",
                "even count: mean of mids | 1;2;3;4         | 2.5 | 2.5 | 1.118033988749895", // sqrt(1.25)
                "odd count: middle value  | 0.5;0.25;10.0   | 0.5 | 3.5833333333333335 | 4.538416268063367",
                "eight values             | 3;1;4;1;5;9;2;6 | 3.5 | 3.875 | 2.5708704751503917", // sqrt(6.609375)
            })
    void medianMeanAndPopulationStd(String why, String values, double median, double mean, double std) {
        double[] v = sorted(values);
        assertThat(Numpy.median(v)).isEqualTo(median);
        assertThat(Numpy.mean(v)).isEqualTo(mean);
        assertThat(Numpy.std(v)).isEqualTo(std);
    }

    /** Expected values printed by numpy 2.4.6: repr(float(np.percentile(v, p))) — bit for bit. */
    @ParameterizedTest(name = "{0} P{1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "1;2;3;4         | 99   | 3.9699999999999998",
                "1;2;3;4         | 99.9 | 3.9970000000000003",
                "3;1;4;1;5;9;2;6 | 90   | 6.8999999999999995",
                "3;1;4;1;5;9;2;6 | 99.9 | 8.979000000000001",
                "0.5;0.25;10.0   | 90   | 8.100000000000001",
                "0.5;0.25;10.0   | 99.9 | 9.981000000000002",
            })
    void percentileMatchesNumpyBitForBit(String values, double p, double numpy) {
        assertThat(Numpy.percentile(sorted(values), p)).isEqualTo(numpy);
    }
}
