package io.tokenpulse.producer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class ClockOffsetTest {

    @Test
    void aShardAheadOfTheBrokerHasAPositiveOffsetWithinHalfTheRoundTrip() {
        // sent at 10 000 and acknowledged at 10 008 on the shard's clock; the broker appended at 9 754
        ClockOffset clock = ClockOffset.measured(10_000, 10_008, 9_754);

        assertThat(clock.offsetMs()).isEqualTo(250.0, within(1e-9));
        assertThat(clock.uncertaintyMs()).isEqualTo(5.0, within(1e-9)); // 4 ms half round trip + 1 ms resolution
    }

    @Test
    void aShardBehindHasANegativeOffset() {
        assertThat(ClockOffset.measured(1_000, 1_003, 1_500).offsetMs()).isEqualTo(-498.5, within(1e-9));
    }

    @Test
    void theTrueOffsetLiesWithinTheUncertaintyWhereverInTheRoundTripTheBrokerAppended() {
        long trueOffsetMs = -37;
        for (long appendedAtShardMs = 5_000; appendedAtShardMs <= 5_020; appendedAtShardMs++) {
            ClockOffset clock = ClockOffset.measured(5_000, 5_020, appendedAtShardMs - trueOffsetMs);
            assertThat(Math.abs(clock.offsetMs() - trueOffsetMs))
                    .as("appended at %d", appendedAtShardMs)
                    .isLessThanOrEqualTo(clock.uncertaintyMs());
        }
    }

    @Test
    void theBrokersInstantOnTheShardsClock() {
        assertThat(ClockOffset.measured(10_000, 10_008, 9_754).onShardClock(20_000))
                .isEqualTo(20_250);
    }

    @Test
    void anAcknowledgementBeforeTheSendIsABug() {
        assertThatThrownBy(() -> ClockOffset.measured(10, 9, 10)).isInstanceOf(IllegalArgumentException.class);
    }
}
