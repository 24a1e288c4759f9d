package io.tokenpulse.aggregator.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RequestValuesTest {

    private static final long MS = 1_000_000L;

    @Test
    void itlIsPerStreamedEventNotPerToken() {
        // 3 events carrying 10 tokens between them: 2 ITL samples, not 9.
        RequestTiming t = new RequestTiming(
                true, 0, 10 * MS, new long[] {110 * MS, 150 * MS, 210 * MS}, 210 * MS, 210 * MS, 7, 10, 10 * MS);
        RequestValues v = RequestValues.of(t);
        assertThat(v.itlNs()).containsExactly(40 * MS, 60 * MS);
        assertThat(v.ttftNs()).isEqualTo(100 * MS);
        assertThat(v.e2elNs()).isEqualTo(200 * MS);
        assertThat(v.queueDelayNs()).isEqualTo(10 * MS);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                // why                          | n | TPOT ms (-1: none)  | token latency ms (-1: none)
                "n = 0: neither                 | 0 | -1                   | -1",
                "n = 1: no TPOT                 | 1 | -1                   | 300",
                "n = 2: (300-100)/1             | 2 | 200                  | 150",
                "n = 5: (300-100)/4             | 5 | 50                   | 60",
            })
    void tpotOnlyForMoreThanOneTokenAndTokenLatencyIsE2elOverN(
            String why, int n, double tpotMs, double tokenLatencyMs) {
        RequestTiming t = new RequestTiming(true, 0, 0, new long[] {100 * MS}, 300 * MS, 300 * MS, 1, n, 0);
        RequestValues v = RequestValues.of(t);
        assertThat(v.tpotNs()).isEqualTo(tpotMs < 0 ? OptionalDouble.empty() : OptionalDouble.of(tpotMs * MS));
        assertThat(v.tokenLatencyNs())
                .isEqualTo(tokenLatencyMs < 0 ? OptionalDouble.empty() : OptionalDouble.of(tokenLatencyMs * MS));
        assertThat(v.tpotForGoodputNs()).isEqualTo(tpotMs < 0 ? 0 : tpotMs * MS);
    }

    @Test
    void trailingUsageEventEndsE2elButAddsNoItl() {
        RequestTiming t = new RequestTiming(true, 0, 0, new long[] {100 * MS, 150 * MS}, 190 * MS, 195 * MS, 1, 2, 0);
        RequestValues v = RequestValues.of(t);
        assertThat(v.e2elNs()).isEqualTo(190 * MS);
        assertThat(v.itlNs()).containsExactly(50 * MS);
    }

    @Test
    void noEventGivesZeroTtftAsVllmReportsIt() {
        RequestValues v = RequestValues.of(new RequestTiming(false, 0, 5, new long[0], 5, 90, 3, 0, 5));
        assertThat(v.ttftNs()).isZero();
        assertThat(v.e2elNs()).isZero();
        assertThat(v.itlNs()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "sent before its slot         | 10 | 5  | 20 | 30 | 30 | scheduledNs",
                "event before the send        | 0  | 10 | 5  | 30 | 30 | not before sentNs",
                "last before the last event   | 0  | 0  | 20 | 10 | 30 | lastNs",
                "finished before last event   | 0  | 0  | 20 | 30 | 25 | finishedNs",
            })
    void impossibleTimingsAreRejected(
            String why, long scheduled, long sent, long event, long last, long finished, String message) {
        assertThatThrownBy(
                        () -> new RequestTiming(true, scheduled, sent, new long[] {event}, last, finished, 1, 1, sent))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message);
    }
}
