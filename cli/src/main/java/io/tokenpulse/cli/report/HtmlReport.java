package io.tokenpulse.cli.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.tokenpulse.aggregator.definitions.Comparison;
import io.tokenpulse.aggregator.report.BenchResult;
import io.tokenpulse.charts.ParetoChart;
import io.tokenpulse.cli.report.CompareTable.Column;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The page of {@code tokenpulse report}: for one run, its summary (the figures of published vLLM comparison tables), its
 * configuration, its window metrics over time (the PNG of {@code chart}, inlined), TTFT and ITL
 * histograms, a per-request timeline and its failures by reason; for a sweep, a table and charts of
 * every point, then each point's section ({@link RunSection}). Charts are uPlot, drawn by the page's
 * inline script ({@link HtmlCharts}).
 */
public final class HtmlReport {

    /** One request on the timeline, in s from the run's first request; NaN first token for none. */
    record Request(double startS, double firstTokenS, double endS) {}

    /**
     * What the page shows of one run.
     *
     * @param result the run's result (the per-request lists when it has them)
     * @param windowsPng the chart of the run's window metrics, or why there is none
     * @param timeline the requests by start time, or empty when the source has no start times
     * @param failures failed requests by reason, or empty to take them from the result's {@code errors}
     * @param definitions the run scored by every tool's definitions (a stored run), or empty (a result file)
     */
    record Run(
            String title,
            BenchResult result,
            Optional<byte[]> windowsPng,
            String windowsMissing,
            List<Request> timeline,
            Map<String, Long> failures,
            Optional<Comparison> definitions) {

        /** A run without the tools' definitions: a result file has no per-request send times to score. */
        Run(
                String title,
                BenchResult result,
                Optional<byte[]> windowsPng,
                String windowsMissing,
                List<Request> timeline,
                Map<String, Long> failures) {
            this(title, result, windowsPng, windowsMissing, timeline, failures, Optional.empty());
        }
    }

    /**
     * A point of a sweep: its name, its parameters, its run (empty when its file is missing), and a
     * search's verdict on it (empty in a grid).
     */
    record Point(String name, JsonNode paramValues, Optional<Run> run, String status, Optional<String> verdict) {
        String params() {
            return paramValues.toString();
        }
    }

    private HtmlReport() {}

    static String run(Run run) {
        HtmlCharts page = new HtmlCharts();
        String body = "<h1>" + Html.escape(run.title()) + "</h1>\n" + RunSection.html(run, "run", page);
        return Html.page(run.title(), body, page.script());
    }

    /** {@code search}: the line a saturation search ended with, empty for a grid. */
    static String sweep(String sweepId, List<String> swept, List<Point> points, Optional<String> search) {
        HtmlCharts page = new HtmlCharts();
        String title = "TokenPulse sweep " + sweepId;
        StringBuilder body = new StringBuilder("<h1>")
                .append(Html.escape(title))
                .append("</h1>\n<p>Swept: ")
                .append(Html.escape(String.join(", ", swept)))
                .append(". ")
                .append(points.size())
                .append(" points.</p>\n");
        search.ifPresent(line -> body.append(searchSection(line, points)));
        body.append("<h2>All points</h2>\n");
        List<CompareTable.Row> rows = new ArrayList<>();
        List<Point> done = new ArrayList<>();
        for (Point point : points) {
            point.run().ifPresent(run -> {
                rows.add(ResultFiles.row(point.name() + " " + point.params(), run.result()));
                done.add(point);
            });
        }
        body.append(new CompareTable(rows, OptionalInt.empty()).htmlTable());
        for (Point point : points) {
            if (point.run().isEmpty()) {
                body.append("<p class=\"missing\">Point ")
                        .append(Html.escape(point.name()))
                        .append(": ")
                        .append(Html.escape(point.status()))
                        .append("</p>\n");
            }
        }
        if (!rows.isEmpty()) {
            body.append("<div class=\"charts\">\n");
            // one numeric swept flag is the x axis; otherwise the points' numbers
            String xLabel = swept.size() == 1 ? swept.get(0) : "point";
            double[] x = new double[rows.size()];
            for (int i = 0; i < x.length; i++) {
                JsonNode value = swept.size() == 1 ? done.get(i).paramValues().get(xLabel) : null;
                if (value == null || !value.isNumber()) {
                    xLabel = "point";
                    x = java.util.stream.IntStream.rangeClosed(1, rows.size())
                            .asDoubleStream()
                            .toArray();
                    break;
                }
                x[i] = value.asDouble();
            }
            List<String> metrics = new ArrayList<>(List.of("TTFT", "TPOT", "ITL"));
            if (Arrays.stream(column(rows, Column.MEDIAN_TTFO)).anyMatch(v -> !Double.isNaN(v))) {
                metrics.add(1, "TTFO"); // a reasoning run's time to first output token, beside TTFT
            }
            for (String metric : metrics) {
                Column median = Column.valueOf("MEDIAN_" + metric);
                Column p99 = Column.valueOf("P99_" + metric);
                body.append(page.chart(
                        "sweep-" + metric.toLowerCase(java.util.Locale.ROOT),
                        metric + " by point (ms)",
                        "lines",
                        xLabel,
                        x,
                        Map.of("median", column(rows, median), "P99", column(rows, p99))));
            }
            body.append(page.chart(
                    "sweep-throughput",
                    "Throughput by point (tok/s)",
                    "lines",
                    xLabel,
                    x,
                    Map.of(
                            "output",
                            column(rows, Column.OUTPUT_THROUGHPUT),
                            "total",
                            column(rows, Column.TOTAL_THROUGHPUT))));
            body.append("</div>\n");
            List<ParetoChart.Point> pareto = new ArrayList<>();
            for (int i = 0; i < rows.size(); i++) {
                ParetoChart.point(
                                done.get(i).name(),
                                rows.get(i).value(Column.MEAN_TPOT),
                                rows.get(i).value(Column.TOTAL_THROUGHPUT))
                        .ifPresent(pareto::add);
            }
            if (!pareto.isEmpty()) {
                body.append("<h2>Per-user speed against total throughput</h2>\n")
                        .append(HtmlCharts.png(
                                "pareto", "Pareto chart", ParetoChart.png(title, pareto, ParetoChart.DEFAULT_SIZE)));
            }
        }
        for (int i = 0; i < done.size(); i++) {
            Point point = done.get(i);
            body.append("<h2>Point ")
                    .append(i + 1)
                    .append(": ")
                    .append(Html.escape(point.name()))
                    .append("</h2>\n<p>")
                    .append(Html.escape(point.params()))
                    .append("</p>\n")
                    .append(RunSection.html(point.run().orElseThrow(), "p" + (i + 1), page));
        }
        return Html.page(title, body.toString(), page.script());
    }

    /** What the search found, and its verdict on each point in the order they ran. */
    private static String searchSection(String line, List<Point> points) {
        StringBuilder section = new StringBuilder("<h2>Search</h2>\n<p class=\"search\">")
                .append(Html.escape(line))
                .append("</p>\n<table class=\"search\"><tr><th>Point</th><th>Verdict</th></tr>\n");
        for (Point point : points) {
            section.append("<tr><td>")
                    .append(Html.escape(point.name()))
                    .append("</td><td>")
                    .append(Html.escape(point.verdict().orElse("")))
                    .append("</td></tr>\n");
        }
        return section.append("</table>\n").toString();
    }

    private static double[] column(List<CompareTable.Row> rows, Column column) {
        return rows.stream().mapToDouble(row -> row.value(column)).toArray();
    }
}
