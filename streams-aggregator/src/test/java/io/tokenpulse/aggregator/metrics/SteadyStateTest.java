package io.tokenpulse.aggregator.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The steady plateau's rule (docs/metrics.md, steady state), worked by hand. */
class SteadyStateTest {

    /** "sent-last;sent-last;..." in seconds, as ns. */
    private static Optional<SteadyState> of(String requests) {
        String[] parts = requests.split(";");
        long[] sent = new long[parts.length];
        long[] last = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            String[] bounds = parts[i].split("-");
            sent[i] = Long.parseLong(bounds[0].trim()) * 1_000_000_000L;
            last[i] = Long.parseLong(bounds[1].trim()) * 1_000_000_000L;
        }
        return SteadyState.of(sent, last);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                // peak 2, floor ceil(1.8) = 2: from the second send (1) to the first end after the last 2 (9)
                "two slots, ramp and drain     | 0-5;1-6;5-9;6-10          | 1 | 9  | 2 | 2",
                // peak 10, floor 9: the 9th send at 8, the count falls to 8 at the second end (21)
                "ten sends, one a second       | 0-20;1-21;2-22;3-23;4-24;5-25;6-26;7-27;8-28;9-29 | 8 | 21 | 10 | 9",
                // an end and a send at one instant: the end counts first, so the peak stays 1
                "back to back, one slot        | 0-5;5-9;9-12              | 0 | 12 | 1 | 1",
                // 3 in flight for 1 s of 20 is a spike, not the plateau: P = 2, held from 0 to 20
                "brief spike is not the plateau | 0-20;0-20;5-6            | 0 | 20 | 2 | 2",
                // a dip below the band in the middle is still inside the plateau
                "dip inside is kept            | 0-4;0-2;3-6;5-6           | 0 | 6  | 2 | 2",
            })
    void plateauRunsFromFirstEntryToLastExitOfTheBand(
            String why, String requests, long startS, long endS, long plateau, long floor) {
        SteadyState s = of(requests).orElseThrow();
        assertThat(s.startNs()).isEqualTo(startS * 1_000_000_000L);
        assertThat(s.endNs()).isEqualTo(endS * 1_000_000_000L);
        assertThat(s.plateau()).isEqualTo(plateau);
        assertThat(s.bandFloor()).isEqualTo(floor);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "every request at one instant | 3-3;3-3",
            })
    void aPlateauWithoutLengthIsNone(String why, String requests) {
        assertThat(of(requests)).isEmpty();
    }

    @ParameterizedTest(name = "sent {0}, last {1}: {2}")
    @CsvSource({"1, 9, true", "0, 5, false", "5, 10, false", "5, 9, true"})
    void holdsOnlyRequestsWhollyInside(long sentS, long lastS, boolean inside) {
        SteadyState s = new SteadyState(1_000_000_000L, 9_000_000_000L, 2, 2);
        assertThat(s.holds(sentS * 1_000_000_000L, lastS * 1_000_000_000L)).isEqualTo(inside);
    }
}
