package io.tokenpulse.producer;

import static org.assertj.core.api.Assertions.assertThat;

import io.tokenpulse.producer.schedule.ArrivalSettings;
import org.junit.jupiter.api.Test;

class WarmPoolTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void maxConcurrencyIsHowManyConnectionsTheRunUsesAtOnce() {
        assertThat(WarmPool.size(ArrivalSettings.constant(20, 1.0, 0), 64, 1000, SECOND))
                .isEqualTo(64);
        assertThat(WarmPool.size(ArrivalSettings.constant(20, 1.0, 0), 64, 10, SECOND))
                .isEqualTo(10);
    }

    @Test
    void aRateNeedsRateTimesTwiceTheTestRequestsLatencyAndAnInfiniteRateEveryRequest() {
        assertThat(WarmPool.size(ArrivalSettings.constant(20, 1.0, 0), null, 1000, 3 * SECOND / 2))
                .isEqualTo(60);
        assertThat(WarmPool.size(ArrivalSettings.constant(Double.POSITIVE_INFINITY, 1.0, 0), null, 200, SECOND))
                .isEqualTo(200);
        assertThat(WarmPool.size(ArrivalSettings.constant(Double.POSITIVE_INFINITY, 1.0, 0), null, 50_000, SECOND))
                .isEqualTo(WarmPool.MAX_CONNECTIONS);
        assertThat(WarmPool.size(ArrivalSettings.constant(0.1, 1.0, 0), null, 1000, SECOND))
                .isEqualTo(1);
    }

    @Test
    void requestsAtTheirOwnTimesNeedTheMostThatAreDueWithinTwiceTheTestRequestsLatency() {
        long ms = 1_000_000L;
        // a burst of 5 within 20 ms among sparse requests; the test request took 10 ms
        long[] offsets = {0, 100 * ms, 200 * ms, 205 * ms, 210 * ms, 219 * ms, 220 * ms, 500 * ms};

        assertThat(WarmPool.sizeForTimes(offsets, null, 10 * ms)).isEqualTo(5);
        assertThat(WarmPool.sizeForTimes(offsets, null, 9 * ms)).isEqualTo(4);
        assertThat(WarmPool.sizeForTimes(offsets, null, 61 * ms))
                .as("within 122 ms: 100, 200, 205, 210, 219, 220")
                .isEqualTo(6);
        assertThat(WarmPool.sizeForTimes(offsets, 3, 10 * ms)).isEqualTo(3);
        assertThat(WarmPool.sizeForTimes(new long[] {0, 0, 0}, null, 0))
                .as("requests due at the same instant need a connection each")
                .isEqualTo(3);
        assertThat(WarmPool.sizeForTimes(new long[5000], null, SECOND)).isEqualTo(WarmPool.MAX_CONNECTIONS);
    }
}
