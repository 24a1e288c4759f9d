package io.tokenpulse.aggregator.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ClientTimingTest {

    @Test
    void aClientThatKeptItsScheduleWithASpareIoThreadIsNotTheBottleneck() {
        ClientTiming timing = ClientTiming.of(2, 64, 0.4, 500, 0.3);
        assertThat(timing.clientLimited()).isFalse();
        assertThat(timing.warning()).isEmpty();
        assertThat(timing.lines())
                .isEqualTo("Client warm-up requests:                 2         \n"
                        + "Client warm connections at start:        64        \n"
                        + "Client send lag P99 (ms):                0.40      \n"
                        + "Client busiest I/O thread (share):       0.30      \n");
    }

    @Test
    void eitherALateScheduleOrASaturatedIoThreadMakesItTheBottleneckWithOneWarningLine() {
        assertThat(ClientTiming.of(0, 1, 10.5, 100, 0.3).clientLimited()).isTrue();
        assertThat(ClientTiming.of(0, 1, 1, 20, 0.95).clientLimited()).isTrue();
        assertThat(ClientTiming.of(0, 1, 10.5, 100, 0.3).warning().orElseThrow())
                .startsWith("Warning: the client was the bottleneck (send lag P99 10.50 ms, bound 10 ms;")
                .doesNotContain("\n");
    }

    @Test
    void aLateSendInARunOfFewRequestsIsPrintedButNoVerdict() {
        ClientTiming timing = ClientTiming.of(0, 4, 40, ClientTiming.MIN_REQUESTS_FOR_LAG - 1, 0.3);
        assertThat(timing.clientLimited()).isFalse();
        assertThat(timing.lines()).contains("Client send lag P99 (ms):                40.00");
    }

    @Test
    void unmeasuredValuesDoNotCountAgainstTheClient() {
        assertThat(ClientTiming.of(0, 0, Double.NaN, 0, Double.NaN).clientLimited())
                .isFalse();
    }
}
