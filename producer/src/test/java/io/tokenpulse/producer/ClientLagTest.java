package io.tokenpulse.producer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class ClientLagTest {

    @Test
    void waitingForAConcurrencySlotIsNotTheClientsLagButLatenessAfterItIs() {
        ClientLag lag = new ClientLag(false);
        for (int i = 0; i < 98; i++) {
            lag.record(0, Dispatcher.NO_LIMIT, 100_000); // 0.1 ms late
        }
        lag.record(0, 500_000_000, 500_200_000); // waited 500 ms for a slot, then 0.2 ms
        lag.record(1_000_000, Dispatcher.NO_LIMIT, 26_000_000); // 25 ms late
        assertThat(lag.p99Ms()).isCloseTo(0.2, within(0.001));
        lag.record(0, Dispatcher.NO_LIMIT, 25_000_000);
        lag.record(0, Dispatcher.NO_LIMIT, 25_000_000);
        assertThat(lag.p99Ms()).isCloseTo(25, within(0.05));
    }

    @Test
    void nothingSentHasNoLag() {
        assertThat(new ClientLag(false).p99Ms()).isNaN();
    }

    @Test
    void inABurstEachRequestIsLateOnlyByItsOwnStepAfterThePreviousSend() {
        ClientLag burst = new ClientLag(true);
        ClientLag schedule = new ClientLag(false);
        for (int i = 1; i <= 200; i++) { // due at 0, sent 0.1 ms apart
            burst.record(0, Dispatcher.NO_LIMIT, i * 100_000L);
            schedule.record(0, Dispatcher.NO_LIMIT, i * 100_000L);
        }
        assertThat(burst.p99Ms()).isCloseTo(0.1, within(0.001));
        assertThat(schedule.p99Ms()).isCloseTo(19.8, within(0.05));
    }
}
