package io.tokenpulse.producer.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code --think-time-ms}: its three forms, their draws, and the one line a bad value gets. */
class ThinkTimeTest {

    private static final int DRAWS = 200_000;

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "fixed          | 500              | 500",
                "fixed fraction | 12.5             | 12.5",
                "zero           | 0                | 0",
                "exponential    | exp:500          | exp:500",
                "uniform        | uniform:200-800  | uniform:200-800",
                "spaces trimmed | ' uniform:1-2 '  | uniform:1-2",
            })
    void readsEachForm(String why, String flag, String shown) {
        assertThat(ThinkTime.parse(flag)).hasToString(shown);
    }

    @Test
    void aFixedTimeIsTheSameEveryTurn() {
        SplittableRandom random = new SplittableRandom(1);
        ThinkTime fixed = ThinkTime.parse("250");
        assertThat(LongStream.range(0, 10).map(i -> fixed.sampleNs(random)).distinct())
                .containsExactly(250_000_000L);
    }

    @Test
    void anExponentialTimeHasTheGivenMeanAndASpreadAsLarge() {
        SplittableRandom random = new SplittableRandom(3);
        ThinkTime exp = ThinkTime.parse("exp:500");
        double[] ms = LongStream.range(0, DRAWS)
                .mapToDouble(i -> exp.sampleNs(random) / 1e6)
                .toArray();
        double mean = java.util.Arrays.stream(ms).average().orElseThrow();
        double sd = Math.sqrt(java.util.Arrays.stream(ms)
                .map(v -> (v - mean) * (v - mean))
                .average()
                .orElseThrow());
        // an exponential's standard deviation equals its mean; 200 000 draws: within about 1 %
        assertThat(mean).isCloseTo(500, within(7.0));
        assertThat(sd).isCloseTo(500, within(10.0));
        assertThat(java.util.Arrays.stream(ms).min().orElseThrow()).isGreaterThanOrEqualTo(0);
    }

    @Test
    void aUniformTimeStaysWithinItsBoundsAndCentresBetweenThem() {
        SplittableRandom random = new SplittableRandom(5);
        ThinkTime uniform = ThinkTime.parse("uniform:200-800");
        long[] ns =
                LongStream.range(0, DRAWS).map(i -> uniform.sampleNs(random)).toArray();
        assertThat(LongStream.of(ns).min().orElseThrow()).isGreaterThanOrEqualTo(200_000_000L);
        assertThat(LongStream.of(ns).max().orElseThrow()).isLessThanOrEqualTo(800_000_000L);
        assertThat(LongStream.of(ns).average().orElseThrow() / 1e6).isCloseTo(500, within(3.0));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "-5", "abc", "exp:", "exp:-1", "uniform:800-200", "uniform:5", "inf", "NaN"})
    void aBadValueIsOneLineListingTheForms(String flag) {
        assertThatThrownBy(() -> ThinkTime.parse(flag))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "--think-time-ms '" + flag + "' is not a think time; give milliseconds >= 0 as a fixed"
                                + " number (500), an exponential mean (exp:500) or uniform bounds, low first (uniform:200-800)");
    }
}
