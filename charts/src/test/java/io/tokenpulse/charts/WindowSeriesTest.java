package io.tokenpulse.charts;

import static io.tokenpulse.charts.Windows.window;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tokenpulse.schemas.avro.WindowLatency;
import io.tokenpulse.schemas.avro.WindowMetrics;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WindowSeriesTest {

    /** Windows from "index:completed;..." with 10 s windows; medians = completed, P99 = 10 × completed. */
    private static List<WindowMetrics> windows(String spec) {
        List<WindowMetrics> windows = new ArrayList<>();
        for (String w : spec.split(";")) {
            String[] parts = w.split(":");
            long completed = Long.parseLong(parts[1]);
            windows.add(window("r", Integer.parseInt(parts[0]), completed, completed, completed * 10.0));
        }
        return windows;
    }

    private static String format(WindowSeries.Points points) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < points.xs().length; i++) {
            text.append(i == 0 ? "" : " ").append(points.xs()[i]).append('=').append(points.ys()[i]);
        }
        return text.toString();
    }

    // Windows are 10 s long: the middle of window k is 5 + 10k s of run time; request rate = completed / 10 s.
    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "one window sits at its middle       | 0:20           | 5.0=2.0",
                "windows in order                    | 0:20;1:30      | 5.0=2.0 15.0=3.0",
                "order of the input does not matter  | 1:30;0:20      | 5.0=2.0 15.0=3.0",
                "a missing window is 0 req/s         | 0:20;2:40      | 5.0=2.0 15.0=0.0 25.0=4.0",
                "two missing windows are two zeros   | 0:20;3:10      | 5.0=2.0 15.0=0.0 25.0=0.0 35.0=1.0",
                "time starts at the first window     | 4:10;5:10      | 5.0=1.0 15.0=1.0",
            })
    void rateFillsWindowsWithoutFinishedRequestsWithZero(String why, String spec, String expected) {
        WindowSeries series = new WindowSeries(windows(spec));

        assertThat(format(series.rate(WindowMetrics::getRequestThroughput))).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "every window has samples            | 0:2;1:3        | 5.0=20.0 15.0=30.0",
                "a window without samples is skipped | 0:2;1:0;2:4    | 5.0=20.0 25.0=40.0",
                "a gap is no point, not a zero       | 0:2;3:1        | 5.0=20.0 35.0=10.0",
                "no samples at all is no point       | 0:0;1:0        | ''",
            })
    void latencyPlotsOnlyWindowsWithSamples(String why, String spec, String expected) {
        WindowSeries series = new WindowSeries(windows(spec));

        assertThat(format(series.latency("ttft", WindowLatency::getP99Ms))).isEqualTo(expected == null ? "" : expected);
    }

    @Test
    void latencyReadsTheNamedMetricOnly() {
        WindowMetrics w = window("r", 0, 5, 1.0, 2.0);
        w.getLatencies().get(1).setMedianMs(7.0); // tpot

        WindowSeries series = new WindowSeries(List.of(w));

        assertThat(series.latency("tpot", WindowLatency::getMedianMs).ys()).containsExactly(7.0);
        assertThat(series.latency("ttft", WindowLatency::getMedianMs).ys()).containsExactly(1.0);
        assertThat(series.latency("nope", WindowLatency::getMedianMs).isEmpty()).isTrue();
    }

    @Test
    void failedPerSecondDividesByTheWindowLength() {
        WindowMetrics w = window("r", 0, 5, 1.0, 2.0);
        w.setFailed(3L);

        assertThat(WindowSeries.failedPerS(w)).isEqualTo(0.3);
    }

    @Test
    void noWindowsIsAOneLineError() {
        assertThatThrownBy(() -> new WindowSeries(List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no window metrics to chart; did any request of the run finish?");
    }

    @Test
    void windowsOfTwoRunsAreRejected() {
        assertThatThrownBy(() -> new WindowSeries(List.of(window("a", 0, 1, 1, 1), window("b", 1, 1, 1, 1))))
                .hasMessage("windows of runs a and b given; chart one run at a time");
    }

    @Test
    void aWindowGivenTwiceIsRejected() {
        assertThatThrownBy(() -> new WindowSeries(List.of(window("a", 0, 1, 1, 1), window("a", 0, 2, 1, 1))))
                .hasMessage("window of run a starting at " + Windows.T0_MS
                        + " ms given twice; pass only the latest update of each window");
    }

    @Test
    void aWindowEndingBeforeItStartsIsRejected() {
        WindowMetrics w = window("a", 0, 1, 1, 1);
        w.setWindowEndEpochMs(w.getWindowStartEpochMs());

        assertThatThrownBy(() -> new WindowSeries(List.of(w))).hasMessageContaining("not after its start");
    }

    @Test
    void windowSizeAndLastPointComeFromTheWindows() {
        WindowSeries series = new WindowSeries(windows("0:1;2:1"));

        assertThat(series.windowSizeMs()).isEqualTo(10_000L);
        assertThat(series.lastX()).isEqualTo(25.0);
        assertThat(series.size()).isEqualTo(2);
        assertThat(series.runId()).isEqualTo("r");
        assertThat(Arrays.stream(series.rate(w -> 1).xs())
                        .boxed()
                        .map(String::valueOf)
                        .collect(Collectors.joining(" ")))
                .isEqualTo("5.0 15.0 25.0");
    }
}
