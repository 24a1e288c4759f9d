package io.tokenpulse.aggregator.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import java.util.function.DoubleSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class DoubleRadixSortTest {
    private static final double[] SPECIAL = {
        -0.0,
        0.0,
        Double.MIN_VALUE,
        -Double.MIN_VALUE,
        Double.MIN_NORMAL,
        Double.MAX_VALUE,
        -Double.MAX_VALUE,
        Double.POSITIVE_INFINITY,
        Double.NEGATIVE_INFINITY,
        1,
        -1
    };

    static Stream<Arguments> samples() {
        Random r = new Random(7);
        DoubleSupplier latencyNs = () -> (double) (1_000_000 + r.nextInt(80_000_000));
        DoubleSupplier anyDouble = () -> Double.longBitsToDouble(r.nextLong());
        DoubleSupplier mixed = () -> r.nextInt(10) == 0 ? SPECIAL[r.nextInt(SPECIAL.length)] : r.nextGaussian() * 1e3;
        DoubleSupplier fewValues = () -> r.nextInt(3) * 0.5;
        return Stream.of(
                Arguments.of("latencies in whole ns", latencyNs, 200_000),
                Arguments.of("any bits but NaN", noNaN(anyDouble), 50_000),
                Arguments.of("signed values, zeros of both signs, infinities", mixed, 50_000),
                Arguments.of("three distinct values", fewValues, 10_000),
                Arguments.of("one value", (DoubleSupplier) () -> 42.0, DoubleRadixSort.MIN_SIZE),
                Arguments.of("just below the radix size", mixed, DoubleRadixSort.MIN_SIZE - 1),
                Arguments.of("empty", mixed, 0));
    }

    /** The same array as Arrays.sort, bit for bit (Arrays.equals tells -0.0 from 0.0). */
    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void sortsAsArraysSortDoes(String what, DoubleSupplier sample, int size) {
        double[] values = new double[size];
        for (int i = 0; i < size; i++) {
            values[i] = sample.getAsDouble();
        }
        double[] expected = values.clone();
        Arrays.sort(expected);

        DoubleRadixSort.sort(values, 0, size);

        assertThat(Arrays.equals(values, expected)).as(what).isTrue();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void sortsOnlyItsRange(String what, DoubleSupplier sample, int size) {
        double[] values = new double[size + 10];
        for (int i = 0; i < values.length; i++) {
            values[i] = sample.getAsDouble();
        }
        double[] expected = values.clone();
        Arrays.sort(expected, 4, 4 + size);

        DoubleRadixSort.sort(values, 4, 4 + size);

        assertThat(Arrays.equals(values, expected)).as(what).isTrue();
    }

    /** NaNs of other bit patterns than Double.NaN's still sort last, as Arrays.sort puts them. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void withNaNsAmongThemTheyGoLast(String what, DoubleSupplier sample, int size) {
        double[] values = new double[size + 3];
        for (int i = 0; i < size; i++) {
            values[i] = sample.getAsDouble();
        }
        values[size] = Double.longBitsToDouble(0xfff8000000000001L);
        values[size + 1] = Double.NaN;
        values[size + 2] = 1.5;
        double[] expected = values.clone();
        Arrays.sort(expected);

        DoubleRadixSort.sort(values, 0, values.length);

        assertThat(Arrays.equals(values, expected)).as(what).isTrue();
        assertThat(values[values.length - 1]).isNaN();
    }

    private static DoubleSupplier noNaN(DoubleSupplier values) {
        return () -> {
            double v;
            do {
                v = values.getAsDouble();
            } while (Double.isNaN(v));
            return v;
        };
    }
}
