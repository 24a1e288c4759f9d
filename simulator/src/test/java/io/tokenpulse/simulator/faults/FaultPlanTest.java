package io.tokenpulse.simulator.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FaultPlanTest {

    @Test
    void specsWithoutProbabilityHitEveryRequestAndKeepTheDefaults() {
        FaultPlan plan = FaultPlan.parse(List.of("503", "reset", "stall", "no-done"), 9);

        assertThat(plan.status503Rate()).isEqualTo(1);
        assertThat(plan.resetRate()).isEqualTo(1);
        assertThat(plan.resetAfterEvents()).isEqualTo(3);
        assertThat(plan.stallRate()).isEqualTo(1);
        assertThat(plan.stallMs()).isEqualTo(5000);
        assertThat(plan.noDoneRate()).isEqualTo(1);
        assertThat(plan.status500Rate()).isZero();
        assertThat(plan.seed()).isEqualTo(9);
    }

    @Test
    void valuesAndProbabilitiesAreReadFromEachSpec() {
        FaultPlan plan = FaultPlan.parse(
                List.of(
                        "500:0.1",
                        "429=7:0.2",
                        "reset=5:0.05",
                        "stall=1500:0.3",
                        "malformed:0.4",
                        "oversized:0.01",
                        "split-utf8:0.5",
                        "tokens-per-event=3",
                        "role-only-first"),
                0);

        assertThat(plan).isEqualTo(new FaultPlan(0.1, 0, 0.2, 7, 0.05, 5, 0.3, 1500, 0.4, 0.01, 0.5, 0, 3, true, 0));
    }

    @Test
    void noSpecsIsNoFault() {
        assertThat(FaultPlan.parse(List.of(), 0)).isEqualTo(FaultPlan.NONE);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "404            | unknown fault '404'",
                "500:1.5        | the probability must be in 0..1",
                "500:x          | needs numbers",
                "stall=soon     | needs numbers",
                "500=3          | takes no =VALUE",
                "tokens-per-event | needs a count",
                "role-only-first:0.5 | drop the :PROBABILITY",
                "reset=0        | reset-after >= 1 event",
            })
    void badSpecsSayWhatToChange(String spec, String message) {
        assertThatThrownBy(() -> FaultPlan.parse(List.of(spec), 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message);
    }

    @Test
    void statusRatesAboveOneInTotalAreRefused() {
        assertThatThrownBy(() -> FaultPlan.parse(List.of("500:0.6", "503:0.6"), 0))
                .hasMessageContaining("add up to at most 1");
    }

    @Test
    void aKindGivenTwiceIsRefused() {
        assertThatThrownBy(() -> FaultPlan.parse(List.of("500:0.1", "500:0.2"), 0))
                .hasMessageContaining("given twice");
    }
}
