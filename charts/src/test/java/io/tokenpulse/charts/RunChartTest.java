package io.tokenpulse.charts;

import static io.tokenpulse.charts.Windows.window;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tokenpulse.schemas.avro.MetricSummary;
import io.tokenpulse.schemas.avro.RunSummary;
import io.tokenpulse.schemas.avro.WindowLatency;
import io.tokenpulse.schemas.avro.WindowMetrics;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;

class RunChartTest {
    private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    private static final List<WindowMetrics> RUN = List.of(
            window("r1", 0, 40, 120.0, 300.0), window("r1", 1, 55, 150.0, 420.0), window("r1", 3, 20, 90.0, 200.0));

    static RunSummary summary(String runId, double requestRate) {
        return RunSummary.newBuilder()
                .setRunId(runId)
                .setDate("20250101-120000")
                .setBackend("vllm")
                .setModelId("facebook/opt-125m")
                .setTokenizerId("facebook/opt-125m")
                .setNumPrompts(115)
                .setRequestRate(requestRate)
                .setBurstiness(1.0)
                .setDurationNs(35_820_000_000L)
                .setCompleted(113)
                .setFailed(2)
                .setTotalInputTokens(0)
                .setTotalOutputTokens(0)
                .setRequestThroughput(0)
                .setOutputThroughput(0)
                .setTotalTokenThroughput(0)
                .setMaxOutputTokensPerS(0)
                .setMaxConcurrentRequests(0)
                .setItlExact(true)
                .setMetrics(List.<MetricSummary>of())
                .setErrors(Map.of())
                .setShards(1)
                .setRecordsNotDelivered(0)
                .build();
    }

    private static BufferedImage decode(byte[] png) throws IOException {
        assertThat(png).startsWith(PNG_SIGNATURE);
        return ImageIO.read(new ByteArrayInputStream(png));
    }

    @ParameterizedTest(name = "{0}x{1}")
    @CsvSource({"1500, 800", "1001, 601", "600, 400"})
    void rendersAPngOfExactlyTheGivenSize(int widthPx, int heightPx) throws IOException {
        byte[] png = RunChart.png(RUN, Optional.of(summary("r1", 20.0)), new RunChart.Size(widthPx, heightPx));

        BufferedImage image = decode(png);
        assertThat(image.getWidth()).isEqualTo(widthPx);
        assertThat(image.getHeight()).isEqualTo(heightPx);
    }

    @Test
    void rendersWithoutASummaryAndWithMetricsThatHaveNoSamples() throws IOException {
        WindowMetrics noSamples = window("r1", 0, 0, 0, 0);
        noSamples.setFailed(4L);

        BufferedImage image = decode(RunChart.png(List.of(noSamples), Optional.empty(), RunChart.DEFAULT_SIZE));

        assertThat(image.getWidth()).isEqualTo(1500);
    }

    @Test
    void aReasoningRunsTtfoIsDrawnBesideTtftAndOtherRunsKeepTheTtftPanel() {
        assertThat(names(
                        RunChart.panels(new WindowSeries(RUN), Optional.empty()).get(0)))
                .containsExactly("P50", "P99");

        List<WindowMetrics> thinking = RUN.stream()
                .map(w -> {
                    WindowMetrics copy = WindowMetrics.newBuilder(w).build();
                    List<WindowLatency> latencies = new ArrayList<>(copy.getLatencies());
                    latencies.add(new WindowLatency("ttfo", copy.getCompleted(), 400.0, 380.0, 500.0, 520.0, 0.0));
                    copy.setLatencies(latencies);
                    return copy;
                })
                .toList();
        XYChart first =
                RunChart.panels(new WindowSeries(thinking), Optional.empty()).get(0);
        assertThat(first.getTitle()).isEqualTo("TTFT and TTFO per window");
        assertThat(names(first)).containsExactly("TTFT P50", "TTFT P99", "TTFO P50", "TTFO P99");
        assertThat(first.getSeries("TTFO P99").getYData()).containsExactly(520.0, 520.0, 520.0);
    }

    private static List<String> names(XYChart chart) {
        return chart.getSeriesCollection().stream().map(XYSeries::getName).toList();
    }

    @Test
    void otherWindowsGiveAnotherImage() {
        byte[] one = RunChart.png(RUN, Optional.empty(), RunChart.DEFAULT_SIZE);
        byte[] same = RunChart.png(RUN, Optional.empty(), RunChart.DEFAULT_SIZE);
        byte[] other = RunChart.png(RUN.subList(0, 2), Optional.empty(), RunChart.DEFAULT_SIZE);

        assertThat(same).as("pure: same records, same bytes").isEqualTo(one);
        assertThat(other).isNotEqualTo(one);
    }

    @Test
    void noWindowsIsAOneLineError() {
        assertThatThrownBy(() -> RunChart.png(List.of(), Optional.empty(), RunChart.DEFAULT_SIZE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no window metrics to chart; did any request of the run finish?");
    }

    @Test
    void aSummaryOfAnotherRunIsRejected() {
        assertThatThrownBy(() -> RunChart.png(RUN, Optional.of(summary("r2", 1.0)), RunChart.DEFAULT_SIZE))
                .hasMessage("summary of run r2 given with windows of run r1");
    }

    @Test
    void headerNamesTheRunItsLoadAndItsWindows() {
        WindowSeries series = new WindowSeries(RUN);

        assertThat(RunChart.header(series, Optional.of(summary("r1", 20.0))))
                .isEqualTo("run r1 · facebook/opt-125m on vllm · 115 requests at 20 req/s, 2 failed · 35.8 s"
                        + " · 3 windows of 10 s");
        assertThat(RunChart.header(series, Optional.of(summary("r1", Double.POSITIVE_INFINITY))))
                .contains("115 requests all at once, 2 failed");
        assertThat(RunChart.header(series, Optional.empty()))
                .isEqualTo("run r1 · 3 windows of 10 s (no run summary yet)");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "1500x800   | 1500 | 800",
                "1200X700   | 1200 | 700",
                "' 800x600' | 800  | 600",
            })
    void sizeParsesWidthByHeight(String text, int widthPx, int heightPx) {
        assertThat(RunChart.Size.parse(text)).isEqualTo(new RunChart.Size(widthPx, heightPx));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "1500          | chart size must be WIDTHxHEIGHT in pixels, e.g. 1500x800; got '1500'",
                "1500x800x2    | chart size must be WIDTHxHEIGHT in pixels, e.g. 1500x800; got '1500x800x2'",
                "wide x tall   | chart size must be WIDTHxHEIGHT in pixels, e.g. 1500x800; got 'wide x tall'",
                "100x100       | chart size must be 600 to 8000 px wide and 400 to 8000 px high, got 100x100",
                "9000x800      | chart size must be 600 to 8000 px wide and 400 to 8000 px high, got 9000x800",
            })
    void badSizesAreOneLineErrors(String text, String message) {
        assertThatThrownBy(() -> RunChart.Size.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(message);
    }
}
