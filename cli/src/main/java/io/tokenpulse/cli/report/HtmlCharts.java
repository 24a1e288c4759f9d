package io.tokenpulse.cli.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The charts of one report page: each chart an element on the page and its data kept for the page's
 * inline script, which draws them all with uPlot; images inlined as data URLs.
 */
final class HtmlCharts {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int BINS = 30;

    private final List<ObjectNode> charts = new ArrayList<>();

    /** An image inlined as a data URL: the page needs no file beside it. */
    static String png(String cssClass, String alt, byte[] png) {
        return "<img class=\"" + cssClass + "\" alt=\"" + Html.escape(alt) + "\" src=\"data:image/png;base64,"
                + Base64.getEncoder().encodeToString(png) + "\">\n";
    }

    String histogram(String id, String metric, List<Double> values) {
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
    String chart(String id, String title, String kind, String xLabel, double[] x, Map<String, double[]> series) {
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
    String script() {
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
