package io.tokenpulse.runner.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SaturationStopTest {

    /** Windows separated by '|' inside the column, TTFTs by ';'; returns the reason once the streak completes. */
    private static Optional<String> feed(SaturationStop stop, String windows) {
        Optional<String> reason = Optional.empty();
        for (String window : windows.split("/", -1)) {
            double[] ms = window.isEmpty()
                    ? new double[0]
                    : Arrays.stream(window.split(";"))
                            .mapToDouble(Double::parseDouble)
                            .toArray();
            Optional<String> now = stop.window(ms);
            if (now.isPresent()) {
                reason = now;
            }
        }
        return reason;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "three windows over the limit stop          | 500/600/700         | 'the live P99 TTFT of first tokens per 1 s window exceeded 400 ms 3 times in a row (500, 600, 700 ms)'",
                "a window within the limit breaks the streak | 500/600/300/700/800 | ''",
                "an empty window neither counts nor breaks   | 500//600/700        | 'the live P99 TTFT of first tokens per 1 s window exceeded 400 ms 3 times in a row (500, 600, 700 ms)'",
                // P99 of 100 x 5: position 98.01 between 100 and 500 → 103.96 ms: one slow request is not saturation
                "P99, not the maximum                       | 5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;5;900/500/500 | ''",
                "exactly at the limit is within it          | 400/400/400         | ''",
            })
    void stopsAfterConsecutiveWindowsOverTheLimit(String why, String windows, String reason) {
        SaturationStop stop = new SaturationStop(400, 3);

        assertThat(feed(stop, windows).orElse("")).isEqualTo(reason);
    }
}
