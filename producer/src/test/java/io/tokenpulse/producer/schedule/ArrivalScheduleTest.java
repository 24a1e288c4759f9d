package io.tokenpulse.producer.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.tokenpulse.producer.schedule.ArrivalSettings.RampUp;
import io.tokenpulse.producer.schedule.ArrivalSettings.Strategy;
import java.util.Arrays;
import java.util.PrimitiveIterator;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ArrivalScheduleTest {

    private static final double INF = Double.POSITIVE_INFINITY;

    private static double[] gapsS(long[] offsetsNs) {
        double[] gaps = new double[offsetsNs.length];
        long previous = 0;
        for (int i = 0; i < offsetsNs.length; i++) {
            gaps[i] = (offsetsNs[i] - previous) / 1e9;
            previous = offsetsNs[i];
        }
        return gaps;
    }

    private static long[] drain(PrimitiveIterator.OfLong arrivals) {
        LongStream.Builder offsets = LongStream.builder();
        arrivals.forEachRemaining((long offset) -> offsets.add(offset));
        return offsets.build().toArray();
    }

    private static double mean(double[] v) {
        return Arrays.stream(v).average().orElseThrow();
    }

    private static double cv(double[] v) {
        double m = mean(v);
        double var = Arrays.stream(v).map(x -> (x - m) * (x - m)).average().orElseThrow();
        return Math.sqrt(var) / m;
    }

    @ParameterizedTest(name = "burstiness {0}")
    @ValueSource(doubles = {0.5, 1.0, 4.0})
    void gapCoefficientOfVariationIsOneOverSqrtBurstiness(double burstiness) {
        long[] offsets = ArrivalSchedule.precompute(ArrivalSettings.constant(10, burstiness, 7), 4000)
                .offsetsNs();
        double[] gaps = gapsS(offsets);
        // Relative standard error of the sample CV is about 3 % at shape 0.5 and 4000 samples.
        assertThat(cv(gaps)).isCloseTo(1 / Math.sqrt(burstiness), within(0.12 / Math.sqrt(burstiness)));
        assertThat(mean(gaps)).isCloseTo(0.1, within(1e-9));
    }

    @ParameterizedTest(name = "{0} prompts at {1}/s, burstiness {2}")
    @CsvSource({
        "1,    1,    1",
        "100,  3,    0.5",
        "1000, 7.5,  1",
        "5000, 0.25, 4",
    })
    void lastOffsetIsExactlyNumPromptsOverRate(int numPrompts, double rate, double burstiness) {
        ArrivalSchedule schedule =
                ArrivalSchedule.precompute(ArrivalSettings.constant(rate, burstiness, 42), numPrompts);
        assertThat(schedule.offsetNs(numPrompts - 1)).isEqualTo(Math.round(numPrompts / rate * 1e9));
        assertThat(schedule.offsetsNs()).isSorted();
        assertThat(schedule.offsetNs(0)).isPositive();
    }

    @Test
    void sameSeedGivesSameScheduleAndAnotherSeedDoesNot() {
        ArrivalSchedule a = ArrivalSchedule.precompute(ArrivalSettings.constant(5, 1, 123), 500);
        ArrivalSchedule b = ArrivalSchedule.precompute(ArrivalSettings.constant(5, 1, 123), 500);
        ArrivalSchedule c = ArrivalSchedule.precompute(ArrivalSettings.constant(5, 1, 124), 500);
        assertThat(a.offsetsNs()).containsExactly(b.offsetsNs());
        assertThat(a).isEqualTo(b).isNotEqualTo(c);
    }

    @ParameterizedTest(name = "burstiness {0}")
    @ValueSource(doubles = {0.5, 1, INF})
    void infiniteRateSendsEverythingAtZero(double burstiness) {
        long[] offsets = ArrivalSchedule.precompute(ArrivalSettings.constant(INF, burstiness, 1), 50)
                .offsetsNs();
        assertThat(offsets).hasSize(50).containsOnly(0L);
    }

    @Test
    void infiniteBurstinessSpacesRequestsEvenly() {
        long[] offsets = ArrivalSchedule.precompute(ArrivalSettings.constant(4, INF, 1), 4)
                .offsetsNs();
        assertThat(offsets).containsExactly(250_000_000L, 500_000_000L, 750_000_000L, 1_000_000_000L);
    }

    // Burstiness inf makes each gap exactly 1 / rate_i, so the offsets can be worked by hand.
    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "linear 1->3, rates 1,2,3         | linear      | 1 | 3 | 3 | 1000000000;1500000000;1833333333",
                "exponential 1->4, rates 1,2,4    | exponential | 1 | 4 | 3 | 1000000000;1500000000;1750000000",
                "linear 2->6, rates 2,4,6 (no rescale) | linear | 2 | 6 | 3 | 500000000;750000000;916666667",
                "single request takes the start rate | linear  | 2 | 8 | 1 | 500000000",
            })
    void rampUpFollowsVllmsRatePerRequestIndex(
            String why, String strategy, double startRps, double endRps, int n, String expected) {
        RampUp rampUp = RampUp.of(strategy, startRps, endRps);
        long[] offsets = ArrivalSchedule.precompute(ArrivalSettings.rampUp(rampUp, INF, 0), n)
                .offsetsNs();
        assertThat(offsets)
                .containsExactly(Arrays.stream(expected.split(";"))
                        .mapToLong(Long::parseLong)
                        .toArray());
    }

    @Test
    void randomRampUpShortensGapsAsTheRateRises() {
        RampUp rampUp = new RampUp(Strategy.LINEAR, 1, 10);
        double[] gaps = gapsS(ArrivalSchedule.precompute(ArrivalSettings.rampUp(rampUp, 1, 3), 2000)
                .offsetsNs());
        double firstTenth = mean(Arrays.copyOfRange(gaps, 0, 200)); // rates 1.0 .. 1.9
        double lastTenth = mean(Arrays.copyOfRange(gaps, 1800, 2000)); // rates 9.1 .. 10
        assertThat(firstTenth).isCloseTo(1 / 1.45, within(0.15));
        assertThat(lastTenth).isCloseTo(1 / 9.55, within(0.025));
    }

    @Test
    void durationModeKeepsArrivingAtTheRateUntilTheEnd() {
        long durationNs = 400_000_000_000L;
        PrimitiveIterator.OfLong arrivals = ArrivalSchedule.forDuration(ArrivalSettings.constant(10, 1, 5), durationNs);
        long[] offsets = drain(arrivals);
        // Poisson count with mean 4000 has a standard deviation of 63.
        assertThat(offsets.length).isBetween(3750, 4250);
        assertThat(offsets).isSorted();
        assertThat(offsets[offsets.length - 1]).isLessThan(durationNs);
        assertThat(arrivals.hasNext()).isFalse();
    }

    @Test
    void durationModeWithEvenSpacingIsExact() {
        PrimitiveIterator.OfLong arrivals =
                ArrivalSchedule.forDuration(ArrivalSettings.constant(2, INF, 0), 2_100_000_000L);
        assertThat(LongStream.generate(arrivals::nextLong).limit(4).toArray())
                .containsExactly(500_000_000L, 1_000_000_000L, 1_500_000_000L, 2_000_000_000L);
        assertThat(arrivals.hasNext()).isFalse();
    }

    @Test
    void durationModeRampUpTakesProgressFromTime() {
        RampUp rampUp = new RampUp(Strategy.LINEAR, 1, 3);
        PrimitiveIterator.OfLong arrivals =
                ArrivalSchedule.forDuration(ArrivalSettings.rampUp(rampUp, INF, 0), 2_000_000_000L);
        // 1 s (rate 1 at p 0); +1/2 s (rate 2 at p 0.5); +1/2.5 s (rate 2.5 at p 0.75);
        // the next, +1/2.9 s (rate 2.9 at p 0.95), would fall after the 2 s end.
        assertThat(drain(arrivals)).containsExactly(1_000_000_000L, 1_500_000_000L, 1_900_000_000L);
    }

    @Test
    void durationModeWithInfiniteRateNeverEndsByItself() {
        PrimitiveIterator.OfLong arrivals =
                ArrivalSchedule.forDuration(ArrivalSettings.constant(INF, 1, 0), 1_000_000_000L);
        assertThat(LongStream.generate(arrivals::nextLong).limit(10_000).toArray())
                .containsOnly(0L);
        assertThat(arrivals.hasNext()).isTrue();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "zero rate                    | --request-rate",
                "negative burstiness          | --burstiness",
                "zero prompts                 | --num-prompts",
                "zero duration                | --duration-minutes",
                "rate with ramp-up            | --request-rate cannot be combined",
                "ramp-up without end rps      | needs both --ramp-up-start-rps and --ramp-up-end-rps",
                "ramp-up starting at 0        | --ramp-up-start-rps must be",
                "ramp-up going down           | --ramp-up-end-rps must be",
                "unknown ramp-up strategy     | --ramp-up-strategy must be linear or exponential",
            })
    void badValuesFailWithAMessageNamingTheFlag(String why, String message) {
        assertThatThrownBy(() -> build(why))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message)
                .hasMessageNotContaining("\n");
    }

    private static Object build(String why) {
        return switch (why) {
            case "zero rate" -> ArrivalSettings.constant(0, 1, 0);
            case "negative burstiness" -> ArrivalSettings.constant(1, -1, 0);
            case "zero prompts" -> ArrivalSchedule.precompute(ArrivalSettings.constant(1, 1, 0), 0);
            case "zero duration" -> ArrivalSchedule.forDuration(ArrivalSettings.constant(1, 1, 0), 0);
            case "rate with ramp-up" -> new ArrivalSettings(5, 1, new RampUp(Strategy.LINEAR, 1, 2), 0);
            case "ramp-up without end rps" -> RampUp.of("linear", 1.0, null);
            case "ramp-up starting at 0" -> RampUp.of("linear", 0.0, 2.0);
            case "ramp-up going down" -> RampUp.of("exponential", 3.0, 2.0);
            case "unknown ramp-up strategy" -> RampUp.of("sigmoid", 1.0, 2.0);
            default -> throw new AssertionError(why);
        };
    }
}
