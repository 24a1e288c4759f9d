package io.tokenpulse.cli.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tokenpulse.aggregator.definitions.Comparison;
import io.tokenpulse.charts.ParetoChart;
import io.tokenpulse.cli.report.CompareTable.Column;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * The page of {@code tokenpulse report}: for one run, its summary (the figures of published vLLM comparison tables), its
 * configuration, its window metrics over time (the PNG of {@code chart}, inlined), TTFT and ITL
 * histograms, a per-request timeline and its failures by reason; for a sweep, a table and charts of
 * every point, then each point's section. Charts are uPlot, drawn by the page's inline script.
 */
public final class HtmlReport {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int BINS = 30;

    /** One request on the timeline, in s from the run's first request; NaN first token for none. */
    record Request(double startS, double firstTokenS, double endS) {}

    /**
     * What the page shows of one run.
     *
     * @param result the run's result file (vLLM's keys; the per-request lists when it has them)
     * @param windowsPng the chart of the run's window metrics, or why there is none
     * @param timeline the requests by start time, or empty when the source has no start times
     * @param failures failed requests by reason, or empty to take them from the result's {@code errors}
     * @param definitions the run scored by every tool's definitions (a stored run), or empty (a result file)
     */
    record Run(
            String title,
            JsonNode result,
            Optional<byte[]> windowsPng,
            String windowsMissing,
            List<Request> timeline,
            Map<String, Long> failures,
            Optional<Comparison> definitions) {

        /** A run without the tools' definitions: a result file has no per-request send times to score. */
        Run(
                String title,
                JsonNode result,
                Optional<byte[]> windowsPng,
                String windowsMissing,
                List<Request> timeline,
                Map<String, Long> failures) {
            this(title, result, windowsPng, windowsMissing, timeline, failures, Optional.empty());
        }
    }

    /** A point of a sweep: its name, its parameters, and its run (empty when its file is missing). */
    record Point(String name, JsonNode paramValues, Optional<Run> run, String status) {
        String params() {
            return paramValues.toString();
        }
    }

    private final List<ObjectNode> charts = new ArrayList<>();

    private HtmlReport() {}

    static String run(Run run) {
        HtmlReport page = new HtmlReport();
        String body = "<h1>" + Html.escape(run.title()) + "</h1>\n" + page.section(run, "run");
        return Html.page(run.title(), body, page.script());
    }

    static String sweep(String sweepId, List<String> swept, List<Point> points) {
        HtmlReport page = new HtmlReport();
        String title = "TokenPulse sweep " + sweepId;
        StringBuilder body = new StringBuilder("<h1>")
                .append(Html.escape(title))
                .append("</h1>\n<p>Swept: ")
                .append(Html.escape(String.join(", ", swept)))
                .append(". ")
                .append(points.size())
                .append(" points.</p>\n<h2>All points</h2>\n");
        List<CompareTable.Row> rows = new ArrayList<>();
        List<Point> done = new ArrayList<>();
        for (Point point : points) {
            point.run().ifPresent(run -> {
                rows.add(ResultFiles.vllm(point.name() + " " + point.params(), run.result()));
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
                        .append(png(
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
                    .append(page.section(point.run().orElseThrow(), "p" + (i + 1)));
        }
        return Html.page(title, body.toString(), page.script());
    }

    /** An image inlined as a data URL: the page needs no file beside it. */
    private static String png(String cssClass, String alt, byte[] png) {
        return "<img class=\"" + cssClass + "\" alt=\"" + Html.escape(alt) + "\" src=\"data:image/png;base64,"
                + Base64.getEncoder().encodeToString(png) + "\">\n";
    }

    private static double[] column(List<CompareTable.Row> rows, Column column) {
        return rows.stream().mapToDouble(row -> row.value(column)).toArray();
    }

    /** One run's sections; {@code id} keeps the chart elements of several runs apart. */
    private String section(Run run, String id) {
        JsonNode result = run.result();
        StringBuilder out = new StringBuilder("<h2>Summary</h2>\n")
                .append(new CompareTable(List.of(ResultFiles.vllm(run.title(), result)), OptionalInt.empty())
                        .htmlTable());
        if (result.path("failed").isNumber()) {
            out.append("<p>Failed requests: <span class=\"failed\">")
                    .append(result.get("failed").asLong())
                    .append("</span></p>\n");
        }
        run.definitions().ifPresent(comparison -> out.append(DefinitionsSection.html(comparison)));
        out.append("<h2>Configuration</h2>\n<table class=\"config\">\n");
        for (Iterator<Map.Entry<String, JsonNode>> it = result.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            if (field.getKey().equals("duration")) {
                break; // vLLM's file has the run's settings first, its figures from "duration" on
            }
            if (field.getValue().isValueNode()) {
                out.append("<tr><td>")
                        .append(Html.escape(field.getKey()))
                        .append("</td><td>")
                        .append(Html.escape(field.getValue().asText()))
                        .append("</td></tr>\n");
            }
        }
        out.append("</table>\n<h2>Window metrics over time</h2>\n");
        if (run.windowsPng().isPresent()) {
            out.append(png("windows", "window metrics", run.windowsPng().get()));
        } else {
            out.append("<p class=\"missing\">")
                    .append(Html.escape(run.windowsMissing()))
                    .append("</p>\n");
        }
        out.append("<h2>Latency histograms</h2>\n<div class=\"charts\">\n");
        List<Double> itls = new ArrayList<>();
        result.path("itls").forEach(request -> request.forEach(v -> itls.add(v.asDouble() * 1000)));
        out.append(histogram(id + "-ttft", "TTFT", successfulMs(result, "ttfts")));
        if (result.has("ttfos")) { // a reasoning run's: its time to first output token beside TTFT
            out.append(histogram(id + "-ttfo", "TTFO", successfulMs(result, "ttfos")));
        }
        out.append(histogram(id + "-itl", "ITL", itls));
        out.append("</div>\n<h2>Requests over time</h2>\n");
        if (run.timeline().isEmpty()) {
            out.append("<p class=\"missing\">No per-request start times: a result file has none"
                    + " (use report --run-id for a stored run's timeline).</p>\n");
        } else {
            List<Request> requests = run.timeline();
            double[] x = new double[requests.size()];
            Map<String, double[]> series = new LinkedHashMap<>();
            series.put("sent", new double[x.length]);
            series.put("first token", new double[x.length]);
            series.put("finished", new double[x.length]);
            for (int i = 0; i < x.length; i++) {
                x[i] = i + 1;
                series.get("sent")[i] = requests.get(i).startS();
                series.get("first token")[i] = requests.get(i).firstTokenS();
                series.get("finished")[i] = requests.get(i).endS();
            }
            out.append("<p>Each request by start order: waiting for its first token between the first two lines,"
                            + " streaming between the last two.</p>\n")
                    .append(chart(id + "-timeline", "Per-request timeline (s)", "timeline", "request", x, series));
        }
        out.append("<h2>Failures by reason</h2>\n");
        Map<String, Long> failures = run.failures().isEmpty() ? failuresOf(result) : run.failures();
        if (failures.isEmpty()) {
            out.append(
                    result.path("failed").asLong(0) > 0 && !result.has("errors")
                            ? "<p class=\"missing\">The file does not say why requests failed (save it with --save-detailed).</p>\n"
                            : "<p>None.</p>\n");
        } else {
            out.append("<table class=\"failures\">\n");
            failures.forEach((reason, count) -> out.append("<tr><td>")
                    .append(Html.escape(reason))
                    .append("</td><td>")
                    .append(count)
                    .append("</td></tr>\n"));
            out.append("</table>\n");
        }
        return out.toString();
    }

    /**
     * A per-request list of seconds ({@code ttfts}, {@code ttfos}) in ms, of the successful requests
     * that have the value: vLLM's lists hold a failed request too (TTFT 0), and {@code ttfos} a 0 for
     * a request whose answer never started.
     */
    private static List<Double> successfulMs(JsonNode result, String key) {
        JsonNode errors = result.path("errors");
        JsonNode values = result.path(key);
        List<Double> ms = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            if (errors.path(i).asText("").isEmpty() && values.get(i).asDouble() > 0) {
                ms.add(values.get(i).asDouble() * 1000);
            }
        }
        return ms;
    }

    private static Map<String, Long> failuresOf(JsonNode result) {
        Map<String, Long> failures = new TreeMap<>();
        result.path("errors").forEach(error -> {
            if (!error.asText().isEmpty()) {
                failures.merge(error.asText(), 1L, Long::sum);
            }
        });
        return failures;
    }

    private String histogram(String id, String metric, List<Double> values) {
        if (values.isEmpty()) {
            return "<p class=\"missing\">No per-request " + metric
                    + " values (the result file's detailed lists; save it with --save-detailed).</p>\n";
        }
        double min = values.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        double max = values.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        double width = max > min ? (max - min) / BINS : 1;
        double[] x = new double[BINS];
        double[] counts = new double[BINS];
        for (int i = 0; i < BINS; i++) {
            x[i] = min + (i + 0.5) * width;
        }
        for (double value : values) {
            counts[Math.min(BINS - 1, (int) ((value - min) / width))]++;
        }
        return chart(
                id,
                metric + " histogram (" + values.size() + " samples, ms)",
                "bars",
                "ms",
                x,
                Map.of("requests", counts));
    }

    /** A chart's element, its data kept for the script. */
    private String chart(
            String id, String title, String kind, String xLabel, double[] x, Map<String, double[]> series) {
        ObjectNode chart = JSON.createObjectNode()
                .put("id", id)
                .put("title", title)
                .put("kind", kind)
                .put("xLabel", xLabel);
        ArrayNode xs = chart.putArray("x");
        for (double v : x) {
            xs.add(v);
        }
        ArrayNode list = chart.putArray("series");
        new TreeMap<>(series).forEach((label, values) -> {
            ObjectNode s = list.addObject().put("label", label);
            ArrayNode ys = s.putArray("values");
            for (double v : values) {
                if (Double.isNaN(v)) {
                    ys.addNull();
                } else {
                    ys.add(v);
                }
            }
        });
        charts.add(chart);
        return "<div class=\"chart\" id=\"" + Html.escape(id) + "\"></div>\n";
    }

    /**
     * Draws every chart with uPlot and marks its element with the number of points drawn
     * ({@code data-points}), which the browser test reads.
     */
    private String script() {
        if (charts.isEmpty()) {
            return "";
        }
        ArrayNode all = JSON.createArrayNode().addAll(charts);
        return "const CHARTS = " + all.toString().replace("</", "<\\/") + ";\n" + """
                const COLORS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728'];
                // no wider than the page, so a phone scrolls down, never sideways; redrawn when the window changes
                const fit = preferred => Math.max(240, Math.min(preferred, document.body.clientWidth - 4));
                const drawn = [];
                window.addEventListener('resize', () => drawn.forEach(d => d.plot.setSize({ width: fit(d.width), height: 300 })));
                for (const c of CHARTS) {
                  const el = document.getElementById(c.id);
                  const timeline = c.kind === 'timeline';
                  // the timeline's series are sent, first token, finished: fill between them
                  const order = timeline ? ['sent', 'first token', 'finished'] : c.series.map(s => s.label);
                  const series = order.map(label => c.series.find(s => s.label === label));
                  const opts = {
                    title: c.title, width: fit(timeline ? 1000 : 560), height: 300,
                    scales: { x: { time: false } },
                    axes: [{ label: c.xLabel }, {}],
                    series: [{ label: c.xLabel }].concat(series.map((s, i) => ({
                      label: s.label,
                      stroke: COLORS[i % COLORS.length],
                      fill: c.kind === 'bars' ? COLORS[i % COLORS.length] + '88' : undefined,
                      paths: c.kind === 'bars' ? uPlot.paths.bars({ size: [0.95] }) : undefined,
                      points: { show: c.kind !== 'bars' && c.x.length < 50 },
                    }))),
                  };
                  if (timeline) {
                    opts.bands = [{ series: [2, 1], fill: '#ff7f0e55' }, { series: [3, 2], fill: '#1f77b455' }];
                  }
                  // uPlot's own cursor and legend: hovering shows each series' value, a click on a legend entry hides it
                  drawn.push({ width: timeline ? 1000 : 560, plot: new uPlot(opts, [c.x].concat(series.map(s => s.values)), el) });
                  el.dataset.points = String(c.x.length);
                }
                """;
    }
}
