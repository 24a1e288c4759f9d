package io.tokenpulse.charts;

import io.tokenpulse.schemas.avro.RunSummary;
import io.tokenpulse.schemas.avro.WindowLatency;
import io.tokenpulse.schemas.avro.WindowMetrics;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * A PNG of one run over its run time, drawn from its window metrics (topic {@code window-metrics}, one
 * record per tumbling window): six panels, P50 and P99 of TTFT (and of TTFO in a run where a request
 * thought), TPOT, ITL and E2EL per window, output
 * and total token throughput, and requests finished (and failed) per second against the configured
 * rate. A header line names the run from its {@link RunSummary} when one is given.
 *
 * <p>Pure: the same records give the same image; no I/O but the returned bytes. Draws off-screen in
 * headless AWT, so it needs no display. Thread-safe (no shared state).
 */
public final class RunChart {

    private static final int COLUMNS = 3;

    /** README-sized: six panels of 500 × 380 px under a header line. */
    public static final Size DEFAULT_SIZE = new Size(1500, 800);

    /**
     * The image's size in pixels.
     *
     * @throws IllegalArgumentException outside 600–8000 × 400–8000 (smaller panels cannot hold an axis)
     */
    public record Size(int widthPx, int heightPx) {
        public Size {
            if (widthPx < 600 || widthPx > 8000 || heightPx < 400 || heightPx > 8000) {
                throw new IllegalArgumentException(
                        "chart size must be 600 to 8000 px wide and 400 to 8000 px high, got " + widthPx + "x"
                                + heightPx);
            }
        }

        /** Parses {@code WIDTHxHEIGHT}, e.g. {@code 1500x800}. */
        public static Size parse(String text) {
            String[] parts = text.trim().toLowerCase(Locale.ROOT).split("x", -1);
            try {
                if (parts.length == 2) {
                    return new Size(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]));
                }
            } catch (NumberFormatException e) {
                // falls through to the message below
            }
            throw new IllegalArgumentException(
                    "chart size must be WIDTHxHEIGHT in pixels, e.g. 1500x800; got '" + text + "'");
        }
    }

    private RunChart() {}

    /**
     * Renders the chart.
     *
     * @param windows the run's windows, the latest update of each, in any order
     * @param summary the run's summary, for the header line; empty for a run still going
     * @return the PNG's bytes
     * @throws IllegalArgumentException when there are no windows, windows of several runs, a window
     *     given twice, or a summary of another run
     */
    public static byte[] png(List<WindowMetrics> windows, Optional<RunSummary> summary, Size size) {
        WindowSeries series = new WindowSeries(windows);
        summary.filter(s -> !s.getRunId().equals(series.runId())).ifPresent(s -> {
            throw new IllegalArgumentException(
                    "summary of run " + s.getRunId() + " given with windows of run " + series.runId());
        });
        return PanelGrid.png(header(series, summary), panels(series, summary), COLUMNS, size);
    }

    static List<XYChart> panels(WindowSeries series, Optional<RunSummary> summary) {
        return List.of(
                firstTokenPanel(series),
                latencyPanel(series, "tpot", "TPOT"),
                latencyPanel(series, "itl", "ITL"),
                latencyPanel(series, "e2el", "E2EL"),
                throughputPanel(series),
                requestPanel(series, summary));
    }

    /** TTFT, with a reasoning run's TTFO beside it: the gap between the two is the thinking. */
    private static XYChart firstTokenPanel(WindowSeries series) {
        WindowSeries.Points ttfoMedian = series.latency("ttfo", WindowLatency::getMedianMs);
        if (ttfoMedian.isEmpty()) {
            return latencyPanel(series, "ttft", "TTFT");
        }
        XYChart chart = panel("TTFT and TTFO per window", "ms");
        add(chart, "TTFT P50", series.latency("ttft", WindowLatency::getMedianMs));
        add(chart, "TTFT P99", series.latency("ttft", WindowLatency::getP99Ms));
        add(chart, "TTFO P50", ttfoMedian);
        add(chart, "TTFO P99", series.latency("ttfo", WindowLatency::getP99Ms));
        return chart;
    }

    /** The header line: which run, what load, how long. */
    static String header(WindowSeries series, Optional<RunSummary> summary) {
        String windows = series.size() + " windows of " + seconds(series.windowSizeMs() / 1000.0) + " s";
        if (summary.isEmpty()) {
            return "run " + series.runId() + " · " + windows + " (no run summary yet)";
        }
        RunSummary s = summary.get();
        String rate =
                Double.isInfinite(s.getRequestRate()) ? "all at once" : "at " + seconds(s.getRequestRate()) + " req/s";
        return "run " + s.getRunId() + " · " + s.getModelId() + " on " + s.getBackend() + " · "
                + (s.getCompleted() + s.getFailed()) + " requests " + rate + ", " + s.getFailed() + " failed · "
                + seconds(s.getDurationNs() / 1e9) + " s · " + windows;
    }

    private static String seconds(double value) {
        return value == Math.rint(value)
                ? String.format(Locale.ROOT, "%.0f", value)
                : String.format(Locale.ROOT, "%.1f", value);
    }

    private static XYChart latencyPanel(WindowSeries series, String metric, String label) {
        XYChart chart = panel(label + " per window", "ms");
        add(chart, "P50", series.latency(metric, WindowLatency::getMedianMs));
        add(chart, "P99", series.latency(metric, WindowLatency::getP99Ms));
        return chart;
    }

    private static XYChart throughputPanel(WindowSeries series) {
        XYChart chart = panel("Token throughput", "tok/s");
        add(chart, "output", series.rate(WindowMetrics::getOutputThroughput));
        add(chart, "total", series.rate(WindowMetrics::getTotalTokenThroughput));
        return chart;
    }

    private static XYChart requestPanel(WindowSeries series, Optional<RunSummary> summary) {
        XYChart chart = panel("Requests finished", "req/s");
        add(chart, "completed", series.rate(WindowMetrics::getRequestThroughput));
        WindowSeries.Points failed = series.rate(WindowSeries::failedPerS);
        if (Arrays.stream(failed.ys()).anyMatch(v -> v > 0)) {
            add(chart, "failed", failed);
        }
        summary.map(RunSummary::getRequestRate)
                .filter(r -> Double.isFinite(r) && r > 0)
                .ifPresent(rate -> {
                    XYSeries configured =
                            chart.addSeries("configured", new double[] {0, series.lastX()}, new double[] {rate, rate});
                    configured.setMarker(SeriesMarkers.NONE);
                    configured.setLineStyle(SeriesLines.DASH_DASH);
                });
        return chart;
    }

    private static XYChart panel(String title, String unit) {
        return PanelGrid.panel(title, "run time (s)", unit);
    }

    /** Adds a line unless it has no point (a metric without samples, e.g. TPOT of 1-token outputs). */
    private static void add(XYChart chart, String name, WindowSeries.Points points) {
        if (!points.isEmpty()) {
            chart.addSeries(name, points.xs(), points.ys());
        }
    }
}
