package io.tokenpulse.aggregator.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MetricsAccumulatorTest {

    private static final long MS = 1_000_000L;

    private static RequestValues request(boolean success, long sentMs, long lastMs, int n, long... eventsMs) {
        long[] events = new long[eventsMs.length];
        for (int i = 0; i < events.length; i++) {
            events[i] = eventsMs[i] * MS;
        }
        return RequestValues.of(new RequestTiming(
                success, sentMs * MS, sentMs * MS, events, lastMs * MS, lastMs * MS, 10, success ? n : 0, sentMs * MS));
    }

    // Buckets from the origin 0: [0,1) s, [1,2) s, ...
    private static final List<RequestValues> PEAK_RUN = List.of(
            request(true, 200, 2300, 4, 500, 900, 1100, 1950), // events in buckets 0,0,1,1; in flight 0..2
            request(true, 800, 1400, 3, 1200, 1300, 1400), // events in bucket 1;       in flight 0..1
            request(true, 2000, 3000, 1, 2600), // event in bucket 2;        in flight 2..3
            request(false, 0, 3500, 0, 100, 1000, 1500)); // a failure counts in no bucket

    @Test
    void peakBucketsCountEventsAndRequestsInFlightPerSecondFromOrigin() {
        MetricsAccumulator acc = new MetricsAccumulator(0, GoodputSlo.NONE);
        PEAK_RUN.forEach(acc::add);
        assertThat(acc.peakEventsPerSecond()).isEqualTo(5); // bucket 1: 1100, 1950, 1200, 1300, 1400
        assertThat(acc.peakConcurrentRequests()).isEqualTo(2); // 2 in buckets 0, 1 and 2; never 3
        assertThat(acc.completed()).isEqualTo(3);
        assertThat(acc.failed()).isEqualTo(1);
        assertThat(acc.lastFinishedNs()).isEqualTo(3500 * MS);
    }

    @ParameterizedTest(name = "origin {0} ms")
    @CsvSource({
        "0,   3", // [0,1) s holds 600, 700, 800; [1,2) s holds 1100, 1200
        "500, 5", // [0.5,1.5) s holds all five
        "900, 3", // [-0.1,0.9) s holds 600, 700, 800; [0.9,1.9) s holds 1100, 1200
    })
    void bucketsStartAtTheOrigin(long originMs, long peakEvents) {
        MetricsAccumulator acc = new MetricsAccumulator(originMs * MS, GoodputSlo.NONE);
        acc.add(request(true, 0, 1200, 5, 600, 700, 800, 1100, 1200));
        assertThat(acc.peakEventsPerSecond()).isEqualTo(peakEvents);
    }

    @Test
    void failuresAddNoTokensAndNoSamples() {
        MetricsAccumulator acc = new MetricsAccumulator(0, GoodputSlo.NONE);
        acc.add(request(false, 0, 300, 5, 100, 200, 300));
        assertThat(acc.totalInputTokens()).isZero();
        assertThat(acc.totalOutputTokens()).isZero();
        assertThat(acc.stats(Metric.TTFT, List.of(99.0)).count()).isZero();
        assertThat(acc.stats(Metric.ITL, List.of(99.0)).meanMs()).isZero();
    }

    @Test
    void mergingEqualsAddingEverythingToOne() {
        MetricsAccumulator all = new MetricsAccumulator(0, GoodputSlo.parse(List.of("ttft:350")));
        MetricsAccumulator first = new MetricsAccumulator(0, GoodputSlo.parse(List.of("ttft:350")));
        MetricsAccumulator second = new MetricsAccumulator(0, GoodputSlo.parse(List.of("ttft:350")));
        for (int i = 0; i < PEAK_RUN.size(); i++) {
            all.add(PEAK_RUN.get(i));
            (i % 2 == 0 ? first : second).add(PEAK_RUN.get(i));
        }
        first.merge(second);
        assertThat(first.toBytes()).isNotEmpty();
        assertSameFigures(first, all);
        assertThat(all.goodCompleted()).isEqualTo(1); // TTFTs 300, 400, 600 ms: only 300 <= 350
    }

    @Test
    void bytesRoundTripKeepsEveryFigure() {
        MetricsAccumulator acc = new MetricsAccumulator(0, GoodputSlo.parse(List.of("tpot:100 e2el:2000")), 3);
        PEAK_RUN.forEach(acc::add);
        MetricsAccumulator back = MetricsAccumulator.fromBytes(acc.toBytes());
        assertSameFigures(back, acc);
        assertThat(back.goodput()).isEqualTo(acc.goodput());
        assertThat(back.isExact(Metric.ITL)).isFalse(); // 4 ITL samples > limit 3: sketch survives the trip
    }

    @Test
    void itlBeyondTheExactLimitSwitchesToSketchWithinPointOnePercent() {
        Random random = new Random(42);
        MetricsAccumulator sketched = new MetricsAccumulator(0, GoodputSlo.NONE, 1_000);
        MetricsAccumulator exact = new MetricsAccumulator(0, GoodputSlo.NONE);
        for (int r = 0; r < 100; r++) {
            long[] events = new long[101];
            long t = 1_000 * MS;
            for (int i = 0; i < events.length; i++) {
                t += (long) (MS * (5 + 200 * random.nextDouble() * random.nextDouble()));
                events[i] = t;
            }
            RequestValues v = RequestValues.of(new RequestTiming(true, 0, 0, events, t, t, 5, 101, 0));
            sketched.add(v);
            exact.add(v);
        }
        assertThat(sketched.isExact(Metric.ITL)).isFalse();
        assertThat(exact.isExact(Metric.ITL)).isTrue();
        List<Double> ps = List.of(50.0, 90.0, 99.0);
        MetricStats s = sketched.stats(Metric.ITL, ps);
        MetricStats e = exact.stats(Metric.ITL, ps);
        assertThat(s.exact()).isFalse();
        assertThat(s.count()).isEqualTo(10_000);
        assertThat(s.meanMs()).isCloseTo(e.meanMs(), within(1e-9 * e.meanMs()));
        assertThat(s.stdMs()).isCloseTo(e.stdMs(), within(1e-9 * e.stdMs()));
        for (int i = 0; i < ps.size(); i++) {
            double exactMs = e.percentiles().get(i).valueMs();
            assertThat(s.percentiles().get(i).valueMs()).isCloseTo(exactMs, within(0.001 * exactMs));
        }
    }

    private static void assertSameFigures(MetricsAccumulator actual, MetricsAccumulator expected) {
        assertThat(actual.completed()).isEqualTo(expected.completed());
        assertThat(actual.failed()).isEqualTo(expected.failed());
        assertThat(actual.goodCompleted()).isEqualTo(expected.goodCompleted());
        assertThat(actual.totalInputTokens()).isEqualTo(expected.totalInputTokens());
        assertThat(actual.totalOutputTokens()).isEqualTo(expected.totalOutputTokens());
        assertThat(actual.lastFinishedNs()).isEqualTo(expected.lastFinishedNs());
        assertThat(actual.peakEventsPerSecond()).isEqualTo(expected.peakEventsPerSecond());
        assertThat(actual.peakConcurrentRequests()).isEqualTo(expected.peakConcurrentRequests());
        for (Metric metric : Metric.values()) {
            assertThat(actual.stats(metric, List.of(50.0, 99.0)))
                    .usingRecursiveComparison()
                    .withComparatorForType(
                            (a, b) -> Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a)) ? 0 : Double.compare(a, b),
                            Double.class)
                    .isEqualTo(expected.stats(metric, List.of(50.0, 99.0)));
        }
    }
}
