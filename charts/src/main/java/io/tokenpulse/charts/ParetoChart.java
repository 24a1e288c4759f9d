package io.tokenpulse.charts;

import java.awt.Color;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.knowm.xchart.AnnotationText;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * A PNG of a sweep's trade-off between what one user sees and what the server delivers: output tokens/s
 * per user ({@code 1000 / mean TPOT}, the speed at which one response streams) against total token
 * throughput (input and output tokens/s of the whole server), every point grey, the Pareto front (the
 * points no other point beats on both axes) as a labelled line. vLLM's {@code plot_pareto} divides output
 * throughput by the concurrency instead, which a sweep over request rates does not set. Pure, headless,
 * thread-safe, like {@link RunChart}.
 */
public final class ParetoChart {

    public static final RunChart.Size DEFAULT_SIZE = new RunChart.Size(1000, 700);

    static final String ALL = "points";
    static final String FRONT = "Pareto front";

    /**
     * One point of a sweep.
     *
     * @param label the point's name, shown beside it when it is on the front
     * @param tokensPerUserS output tokens/s per user, {@code 1000 / mean TPOT (ms)}
     * @param totalTokensPerS total token throughput (tok/s)
     */
    public record Point(String label, double tokensPerUserS, double totalTokensPerS) {}

    private ParetoChart() {}

    /**
     * A point from a result's figures; empty when its mean TPOT is missing (NaN) or 0 (one output token per
     * request: no per-user streaming rate).
     */
    public static Optional<Point> point(String label, double meanTpotMs, double totalTokensPerS) {
        return meanTpotMs > 0 && !Double.isNaN(totalTokensPerS)
                ? Optional.of(new Point(label, 1000 / meanTpotMs, totalTokensPerS))
                : Optional.empty();
    }

    /**
     * The points no other point beats on both axes, by tokens/s per user ascending: vLLM's rule (sorted by
     * per-user rate then throughput, descending, a point is kept when its throughput is at least the best
     * so far), so of two equal points both stay.
     */
    public static List<Point> front(List<Point> points) {
        List<Point> sorted = new ArrayList<>(points);
        sorted.sort(Comparator.comparingDouble(Point::tokensPerUserS)
                .thenComparingDouble(Point::totalTokensPerS)
                .reversed());
        List<Point> front = new ArrayList<>();
        double best = Double.NEGATIVE_INFINITY;
        for (Point p : sorted) {
            if (p.totalTokensPerS() >= best) {
                front.add(p);
                best = p.totalTokensPerS();
            }
        }
        Collections.reverse(front);
        return front;
    }

    /**
     * @throws IllegalArgumentException without points
     */
    public static byte[] png(String title, List<Point> points, RunChart.Size size) {
        if (points.isEmpty()) {
            throw new IllegalArgumentException("a Pareto chart needs at least one point");
        }
        return PanelGrid.png(title, List.of(panel(points)), 1, size);
    }

    static XYChart panel(List<Point> points) {
        XYChart chart = PanelGrid.panel(
                "Output tokens/s per user against total token throughput", "output tok/s per user", "total tok/s");
        XYSeries all = chart.addSeries(
                ALL,
                points.stream().mapToDouble(Point::tokensPerUserS).toArray(),
                points.stream().mapToDouble(Point::totalTokensPerS).toArray());
        all.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        all.setMarker(SeriesMarkers.CIRCLE);
        all.setMarkerColor(Color.GRAY);
        List<Point> front = front(points);
        XYSeries line = chart.addSeries(
                FRONT,
                front.stream().mapToDouble(Point::tokensPerUserS).toArray(),
                front.stream().mapToDouble(Point::totalTokensPerS).toArray());
        line.setMarker(SeriesMarkers.DIAMOND);
        for (Point p : front) {
            chart.addAnnotation(new AnnotationText(p.label(), p.tokensPerUserS(), p.totalTokensPerS(), false));
        }
        return chart;
    }
}
