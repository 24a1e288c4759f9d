package io.tokenpulse.charts;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.XYChart;

/**
 * A PNG of a sweep against its first swept variable: P50 and P99 of TTFT, TPOT and ITL, and output
 * and total token throughput, one line per value of the other swept variables. Values are the
 * points' result-file keys ({@code median_ttft_ms}, {@code p99_ttft_ms}, {@code output_throughput},
 * ...), already averaged over a point's runs. Pure, headless, thread-safe, like {@link RunChart}.
 */
public final class SweepChart {

    public static final RunChart.Size DEFAULT_SIZE = new RunChart.Size(1200, 900);

    /** The result-file keys the chart draws. */
    public static final List<String> KEYS = List.of(
            "median_ttft_ms",
            "p99_ttft_ms",
            "median_tpot_ms",
            "p99_tpot_ms",
            "median_itl_ms",
            "p99_itl_ms",
            "output_throughput",
            "total_token_throughput");

    /**
     * One point of the sweep.
     *
     * @param x the first swept variable's value
     * @param group the other swept variables' values, e.g. {@code random_input_len=80} ("" when there are none)
     * @param values result-file key → value; a key missing is a gap in its line
     */
    public record Point(double x, String group, Map<String, Double> values) {}

    private SweepChart() {}

    /**
     * @param title the header line (which sweep)
     * @param xName the first swept variable, the x axis
     * @throws IllegalArgumentException without points
     */
    public static byte[] png(String title, String xName, List<Point> points, RunChart.Size size) {
        if (points.isEmpty()) {
            throw new IllegalArgumentException("a sweep chart needs at least one point");
        }
        return PanelGrid.png(title, panels(xName, points), 2, size);
    }

    /** The four panels: TTFT, TPOT, ITL, token throughput. */
    static List<XYChart> panels(String xName, List<Point> points) {
        return List.of(
                panel(points, xName, "TTFT", "ms", "median_ttft_ms", "P50", "p99_ttft_ms", "P99"),
                panel(points, xName, "TPOT", "ms", "median_tpot_ms", "P50", "p99_tpot_ms", "P99"),
                panel(points, xName, "ITL", "ms", "median_itl_ms", "P50", "p99_itl_ms", "P99"),
                panel(
                        points,
                        xName,
                        "Token throughput",
                        "tok/s",
                        "output_throughput",
                        "output",
                        "total_token_throughput",
                        "total"));
    }

    private static XYChart panel(
            List<Point> points,
            String xName,
            String title,
            String unit,
            String firstKey,
            String firstLabel,
            String secondKey,
            String secondLabel) {
        XYChart chart = PanelGrid.panel(title, xName, unit);
        Map<String, List<Point>> groups = new LinkedHashMap<>();
        points.forEach(
                p -> groups.computeIfAbsent(p.group(), g -> new ArrayList<>()).add(p));
        groups.forEach((group, members) -> {
            add(chart, label(firstLabel, group), members, firstKey);
            add(chart, label(secondLabel, group), members, secondKey);
        });
        return chart;
    }

    private static String label(String series, String group) {
        return group.isEmpty() ? series : series + " " + group;
    }

    /** A line of the points that have {@code key}, by x; none when no point has it. */
    private static void add(XYChart chart, String name, List<Point> points, String key) {
        List<double[]> xy = new ArrayList<>();
        for (Point p : points) {
            Double value = p.values().get(key);
            if (value != null) {
                xy.add(new double[] {p.x(), value});
            }
        }
        if (!xy.isEmpty()) {
            xy.sort((a, b) -> Double.compare(a[0], b[0]));
            chart.addSeries(
                    name,
                    xy.stream().mapToDouble(a -> a[0]).toArray(),
                    xy.stream().mapToDouble(a -> a[1]).toArray());
        }
    }
}
