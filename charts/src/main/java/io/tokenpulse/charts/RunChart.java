package io.tokenpulse.charts;

import io.tokenpulse.schemas.avro.RunSummary;
import io.tokenpulse.schemas.avro.WindowLatency;
import io.tokenpulse.schemas.avro.WindowMetrics;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import javax.imageio.ImageIO;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * A PNG of one run over its run time, drawn from its window metrics (topic {@code window-metrics}, one
 * record per tumbling window): six panels, P50 and P99 of TTFT, TPOT, ITL and E2EL per window, output
 * and total token throughput, and requests finished (and failed) per second against the configured
 * rate. A header line names the run from its {@link RunSummary} when one is given.
 *
 * <p>Pure: the same records give the same image; no I/O but the returned bytes. Draws off-screen in
 * headless AWT, so it needs no display. Thread-safe (no shared state).
 */
public final class RunChart {

    static {
        // Off-screen drawing only: without this a set but unreachable DISPLAY would make AWT try to connect.
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }

    private static final int COLUMNS = 3;
    private static final int ROWS = 2;
    private static final Color HEADER_TEXT = new Color(0x33, 0x33, 0x33);

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
        List<XYChart> panels = List.of(
                latencyPanel(series, "ttft", "TTFT"),
                latencyPanel(series, "tpot", "TPOT"),
                latencyPanel(series, "itl", "ITL"),
                latencyPanel(series, "e2el", "E2EL"),
                throughputPanel(series),
                requestPanel(series, summary));
        BufferedImage image = new BufferedImage(size.widthPx(), size.heightPx(), BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, size.widthPx(), size.heightPx());
            int headerPx = drawHeader(g, header(series, summary), size);
            // Laid out here rather than with XChart's BitmapEncoder grid, which gives every cell the first
            // chart's size: cells of unequal width make the image exactly the size asked for.
            int gridHeightPx = size.heightPx() - headerPx;
            for (int i = 0; i < panels.size(); i++) {
                int column = i % COLUMNS;
                int row = i / COLUMNS;
                int x0 = size.widthPx() * column / COLUMNS;
                int x1 = size.widthPx() * (column + 1) / COLUMNS;
                int y0 = headerPx + gridHeightPx * row / ROWS;
                int y1 = headerPx + gridHeightPx * (row + 1) / ROWS;
                Graphics2D cell = (Graphics2D) g.create(x0, y0, x1 - x0, y1 - y0);
                try {
                    panels.get(i).paint(cell, x1 - x0, y1 - y0);
                } finally {
                    cell.dispose();
                }
            }
        } finally {
            g.dispose();
        }
        ByteArrayOutputStream png = new ByteArrayOutputStream();
        try {
            ImageIO.write(image, "png", png);
        } catch (IOException e) {
            throw new UncheckedIOException("PNG encoding failed in memory", e);
        }
        return png.toByteArray();
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

    private static int drawHeader(Graphics2D g, String text, Size size) {
        Font font = new Font(Font.SANS_SERIF, Font.BOLD, Math.max(14, size.heightPx() / 50));
        g.setFont(font);
        g.setColor(HEADER_TEXT);
        int heightPx = g.getFontMetrics().getHeight() * 2;
        g.drawString(text, 12, heightPx * 2 / 3);
        return heightPx;
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
        XYChart chart = new XYChartBuilder()
                .title(title)
                .xAxisTitle("run time (s)")
                .yAxisTitle(unit)
                .build();
        Styler styler = chart.getStyler();
        styler.setLegendPosition(Styler.LegendPosition.InsideNW);
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setMarkerSize(5);
        // From 0: a latency that doubles should look doubled.
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setXAxisMin(0.0);
        return chart;
    }

    /** Adds a line unless it has no point (a metric without samples, e.g. TPOT of 1-token outputs). */
    private static void add(XYChart chart, String name, WindowSeries.Points points) {
        if (!points.isEmpty()) {
            chart.addSeries(name, points.xs(), points.ys());
        }
    }
}
