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
}
