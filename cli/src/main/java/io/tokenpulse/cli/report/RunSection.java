package io.tokenpulse.cli.report;

import io.tokenpulse.aggregator.report.BenchResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * One run's part of a report page: its summary (the figures of published vLLM comparison tables),
 * configuration, window metrics over time, TTFT and ITL histograms, per-request timeline and failures
 * by reason.
 */
final class RunSection {
    private RunSection() {}

    /** One run's sections; {@code id} keeps the chart elements of several runs apart. */
    static String html(HtmlReport.Run run, String id, HtmlCharts charts) {
        BenchResult result = run.result();
        StringBuilder out = new StringBuilder("<h2>Summary</h2>\n")
                .append(new CompareTable(List.of(ResultFiles.row(run.title(), result)), OptionalInt.empty())
                        .htmlTable());
        if (!Double.isNaN(result.failed())) {
            out.append("<p>Failed requests: <span class=\"failed\">")
                    .append((long) result.failed())
                    .append("</span></p>\n");
        }
        run.definitions().ifPresent(comparison -> out.append(DefinitionsSection.html(comparison)));
        out.append("<h2>Configuration</h2>\n<table class=\"config\">\n");
        result.settings()
                .forEach((key, value) -> out.append("<tr><td>")
                        .append(Html.escape(key))
                        .append("</td><td>")
                        .append(Html.escape(value))
                        .append("</td></tr>\n"));
        out.append("</table>\n<h2>Window metrics over time</h2>\n");
        if (run.windowsPng().isPresent()) {
            out.append(
                    HtmlCharts.png("windows", "window metrics", run.windowsPng().get()));
        } else {
            out.append("<p class=\"missing\">")
                    .append(Html.escape(run.windowsMissing()))
                    .append("</p>\n");
        }
        out.append("<h2>Latency histograms</h2>\n<div class=\"charts\">\n");
        BenchResult.Requests requests = result.requests();
        List<Double> itls = new ArrayList<>();
        requests.itlsS().forEach(request -> request.forEach(v -> itls.add(v * 1000)));
        out.append(charts.histogram(id + "-ttft", "TTFT", successfulMs(requests, requests.ttftsS())));
        if (requests.ttfosS().isPresent()) { // a reasoning run's: its time to first output token beside TTFT
            out.append(charts.histogram(
                    id + "-ttfo",
                    "TTFO",
                    successfulMs(requests, requests.ttfosS().get())));
        }
        out.append(charts.histogram(id + "-itl", "ITL", itls));
        out.append("</div>\n<h2>Requests over time</h2>\n");
        if (run.timeline().isEmpty()) {
            out.append("<p class=\"missing\">No per-request start times: a result file has none"
                    + " (use report --run-id for a stored run's timeline).</p>\n");
        } else {
            List<HtmlReport.Request> timeline = run.timeline();
            double[] x = new double[timeline.size()];
            Map<String, double[]> series = new LinkedHashMap<>();
            series.put("sent", new double[x.length]);
            series.put("first token", new double[x.length]);
            series.put("finished", new double[x.length]);
            for (int i = 0; i < x.length; i++) {
                x[i] = i + 1;
                series.get("sent")[i] = timeline.get(i).startS();
                series.get("first token")[i] = timeline.get(i).firstTokenS();
                series.get("finished")[i] = timeline.get(i).endS();
            }
            out.append("<p>Each request by start order: waiting for its first token between the first two lines,"
                            + " streaming between the last two.</p>\n")
                    .append(charts.chart(
                            id + "-timeline", "Per-request timeline (s)", "timeline", "request", x, series));
        }
        out.append("<h2>Failures by reason</h2>\n");
        Map<String, Long> failures = run.failures().isEmpty() ? failuresOf(requests) : run.failures();
        if (failures.isEmpty()) {
            out.append(
                    result.failed() > 0 && requests.errors().isEmpty()
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
    private static List<Double> successfulMs(BenchResult.Requests requests, List<Double> seconds) {
        List<String> errors = requests.errors().orElse(List.of());
        List<Double> ms = new ArrayList<>();
        for (int i = 0; i < seconds.size(); i++) {
            if ((i >= errors.size() || errors.get(i).isEmpty()) && seconds.get(i) > 0) {
                ms.add(seconds.get(i) * 1000);
            }
        }
        return ms;
    }

    private static Map<String, Long> failuresOf(BenchResult.Requests requests) {
        Map<String, Long> failures = new TreeMap<>();
        requests.errors().orElse(List.of()).forEach(error -> {
            if (!error.isEmpty()) {
                failures.merge(error, 1L, Long::sum);
            }
        });
        return failures;
    }
}
