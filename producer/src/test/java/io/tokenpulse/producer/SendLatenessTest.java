package io.tokenpulse.producer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SendLatenessTest {

    @Test
    void theLineGivesMedianP99AndMaxInMsLinearBetweenRanks() {
        SendLateness lateness = new SendLateness(4);
        lateness.record(1_000_000, 2_000_000); // 1 ms late
        lateness.record(0, 3_000_000); // 3 ms
        lateness.record(5_000_000, 4_000_000); // early counts as 0
        lateness.record(0, 2_000_000); // 2 ms

        // sorted 0 1 2 3 ms: median at rank 1.5 = 1.5; P99 at rank 2.97 = 2.97
        assertThat(lateness.line())
                .isEqualTo("Trace send lateness (ms): median 1.50, P99 2.97, max 3.00 over 4 requests (sent minus"
                        + " trace time; meter tokenpulse_client_schedule_lag_seconds)");
    }
}
