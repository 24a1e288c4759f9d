package io.tokenpulse.producer.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A ramp-up's whole-rate steps, as vLLM's rps_change_events list them. */
class RpsStepTest {

    private static final long[] OFFSETS = {100, 200, 300, 400, 500, 600, 700};

    @Test
    void aLinearRampStepsAtTheFirstRequestDueAtEachWholeRate() {
        ArrivalSettings ramp =
                ArrivalSettings.rampUp(new ArrivalSettings.RampUp(ArrivalSettings.Strategy.LINEAR, 1, 4), 1, 0);
        // rates 1, 1.5, 2, 2.5, 3, 3.5, 4 for requests 0..6
        assertThat(RpsStep.of(ramp, OFFSETS))
                .containsExactly(new RpsStep(1, 0), new RpsStep(2, 300), new RpsStep(3, 500), new RpsStep(4, 700));
    }

    @Test
    void aJumpOverSeveralWholeRatesListsEachAtTheSameRequest() {
        ArrivalSettings ramp =
                ArrivalSettings.rampUp(new ArrivalSettings.RampUp(ArrivalSettings.Strategy.EXPONENTIAL, 1, 4), 1, 0);
        assertThat(RpsStep.of(ramp, new long[] {10, 20}))
                .containsExactly(new RpsStep(1, 0), new RpsStep(2, 20), new RpsStep(3, 20), new RpsStep(4, 20));
    }

    @Test
    void aConstantRateHasNoSteps() {
        assertThat(RpsStep.of(ArrivalSettings.constant(5, 1, 0), OFFSETS)).isEmpty();
    }
}
