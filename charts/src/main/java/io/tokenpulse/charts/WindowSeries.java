package io.tokenpulse.charts;

import io.tokenpulse.schemas.avro.WindowLatency;
import io.tokenpulse.schemas.avro.WindowMetrics;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * One run's windows as chart series: x is the window's middle in seconds since the start of the
 * first window, so the axis reads as run time. Pure; immutable.
 */
final class WindowSeries {

    /** Points of one line; xs and ys have the same length. */
    record Points(double[] xs, double[] ys) {
        Points {
            if (xs.length != ys.length) {
                throw new IllegalArgumentException(xs.length + " x values but " + ys.length + " y values");
            }
        }

        boolean isEmpty() {
            return xs.length == 0;
        }
    }

    private final List<WindowMetrics> windows;
    private final long firstStartMs;

    /**
     * @throws IllegalArgumentException when there are no windows, windows of several runs, a window
     *     that ends before it starts, or two updates of one window
     */
    WindowSeries(List<WindowMetrics> windows) {
        if (windows.isEmpty()) {
            throw new IllegalArgumentException("no window metrics to chart; did any request of the run finish?");
        }
        List<WindowMetrics> sorted = new ArrayList<>(windows);
        sorted.sort(Comparator.comparingLong(WindowMetrics::getWindowStartEpochMs));
        String runId = sorted.get(0).getRunId();
        for (int i = 0; i < sorted.size(); i++) {
            WindowMetrics w = sorted.get(i);
            if (!w.getRunId().equals(runId)) {
                throw new IllegalArgumentException(
                        "windows of runs " + runId + " and " + w.getRunId() + " given; chart one run at a time");
            }
            if (w.getWindowEndEpochMs() <= w.getWindowStartEpochMs()) {
                throw new IllegalArgumentException(
                        "window of run " + runId + " starting at " + w.getWindowStartEpochMs() + " ms ends at "
                                + w.getWindowEndEpochMs() + " ms, not after its start");
            }
            if (i > 0 && sorted.get(i - 1).getWindowStartEpochMs() == w.getWindowStartEpochMs()) {
                throw new IllegalArgumentException("window of run " + runId + " starting at "
                        + w.getWindowStartEpochMs() + " ms given twice; pass only the latest update of each window");
            }
        }
        this.windows = List.copyOf(sorted);
        this.firstStartMs = sorted.get(0).getWindowStartEpochMs();
    }

    String runId() {
        return windows.get(0).getRunId();
    }

    int size() {
        return windows.size();
    }

    /** Length of the first window (the aggregator's window size), in ms. */
    long windowSizeMs() {
        WindowMetrics first = windows.get(0);
        return first.getWindowEndEpochMs() - first.getWindowStartEpochMs();
    }

    /** Middle of the last window, in s of run time. */
    double lastX() {
        return middleS(windows.get(windows.size() - 1));
    }

    /**
     * One statistic of a latency metric per window, skipping windows without a sample of it (a
     * missing point, not a false 0 ms).
     *
     * @param metric ttft, tpot, itl, e2el or queue_delay, as in {@link WindowLatency#getMetric()}
     */
    Points latency(String metric, ToDoubleFunction<WindowLatency> statisticMs) {
        List<double[]> points = new ArrayList<>();
        for (WindowMetrics w : windows) {
            for (WindowLatency latency : w.getLatencies()) {
                if (latency.getMetric().equals(metric) && latency.getCount() > 0) {
                    points.add(new double[] {middleS(w), statisticMs.applyAsDouble(latency)});
                }
            }
        }
        return points(points);
    }

    /**
     * A per-second rate of each window, with 0 for every window between two stored ones: the
     * aggregator emits only windows in which a request finished, so a gap means nothing finished.
     */
    Points rate(ToDoubleFunction<WindowMetrics> perS) {
        List<double[]> points = new ArrayList<>();
        WindowMetrics previous = null;
        for (WindowMetrics w : windows) {
            if (previous != null) {
                long sizeMs = previous.getWindowEndEpochMs() - previous.getWindowStartEpochMs();
                for (long startMs = previous.getWindowEndEpochMs();
                        startMs + sizeMs <= w.getWindowStartEpochMs();
                        startMs += sizeMs) {
                    points.add(new double[] {(startMs + sizeMs / 2.0 - firstStartMs) / 1000.0, 0.0});
                }
            }
            points.add(new double[] {middleS(w), perS.applyAsDouble(w)});
            previous = w;
        }
        return points(points);
    }

    /** Failed requests per second of each window. */
    static double failedPerS(WindowMetrics w) {
        return w.getFailed() * 1000.0 / (w.getWindowEndEpochMs() - w.getWindowStartEpochMs());
    }

    private double middleS(WindowMetrics w) {
        return ((w.getWindowStartEpochMs() + w.getWindowEndEpochMs()) / 2.0 - firstStartMs) / 1000.0;
    }

    private static Points points(List<double[]> points) {
        double[] xs = new double[points.size()];
        double[] ys = new double[points.size()];
        for (int i = 0; i < points.size(); i++) {
            xs[i] = points.get(i)[0];
            ys[i] = points.get(i)[1];
        }
        return new Points(xs, ys);
    }
}
