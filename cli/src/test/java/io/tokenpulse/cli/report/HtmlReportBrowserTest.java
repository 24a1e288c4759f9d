package io.tokenpulse.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tokenpulse.aggregator.report.ResultReader;
import io.tokenpulse.cli.HeadlessChromium;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report page opened by headless Chromium with the network off: it asks for nothing (Chromium's
 * net log), the charts are drawn (uPlot from the page itself), the figures are on it; screenshots
 * go to {@code target/report-*.png}.
 */
class HtmlReportBrowserTest {
    @TempDir
    static Path dir;

    static HeadlessChromium chromium;

    @BeforeAll
    static void chromium() throws IOException {
        HeadlessChromium.assumeInstalled();
        chromium = new HeadlessChromium(Files.createDirectories(dir.resolve("profile")));
    }

    static Path resource(String name) {
        try {
            return Path.of(
                    HtmlReportBrowserTest.class.getResource("/report/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The page requests nothing: no address to fetch a script, style, image or font from. */
    private static void assertSelfContained(String html) {
        assertThat(html).doesNotContainPattern("(src|href)\\s*=\\s*[\"']?(https?:)?//");
        assertThat(html).doesNotContainPattern("url\\(\\s*[\"']?(https?:)?//");
        assertThat(html).doesNotContain("@import");
    }

    /** The page {@code html}, saved as {@code name}: its DOM, once loaded without a single request. */
    private static String loaded(String name, String html) throws IOException, InterruptedException {
        assertSelfContained(html);
        Path page = Files.writeString(dir.resolve(name), html);
        HeadlessChromium.Loaded loaded = chromium.load(page);
        assertThat(loaded.requests()).as("requests of the page").isEmpty();
        return loaded.dom();
    }

    /** The number of points drawn in the chart element {@code id}, which holds uPlot's canvas once drawn. */
    private static int pointsDrawn(String dom, String id) {
        Matcher chart = Pattern.compile(
                        "<div class=\"chart\" id=\"" + id + "\" data-points=\"(\\d+)\"><div class=\"uplot")
                .matcher(dom);
        assertThat(chart.find()).as("uPlot drew chart " + id).isTrue();
        int end = dom.indexOf("<div class=\"chart\"", chart.end());
        assertThat(dom.substring(chart.start(), end < 0 ? dom.length() : end)).contains("<canvas");
        return Integer.parseInt(chart.group(1));
    }

    @Test
    void aDetailedResultFileRendersWithItsFiguresHistogramsAndFailures() throws Exception {
        String html = ReportFile.resultFile(resource("detailed.json"));

        String dom = loaded("detailed.html", html);

        assertThat(dom).contains("<title>TokenPulse result detailed.json</title>");
        assertThat(dom).contains("<td>461.52</td>", "<td>1734.22</td>", "<td>2059.38</td>");
        assertThat(dom).contains("<td>HTTP 503: Service Unavailable</td><td>2</td>");
        assertThat(dom).contains("TTFT histogram (18 samples, ms)"); // the 2 failed requests left out
        assertThat(pointsDrawn(dom, "run-ttft")).isEqualTo(30);
        assertThat(pointsDrawn(dom, "run-itl")).isEqualTo(30);
        assertThat(dom).contains("Not available from a result file: the window metrics are in Kafka");
        chromium.screenshot(dir.resolve("detailed.html"), Path.of("target", "report-result.png"), 1280, 2400);
        assertThat(Path.of("target", "report-result.png")).isNotEmptyFile();
    }

    @Test
    void aRunWithATimelineAndWindowsRendersThemAll() throws Exception {
        byte[] png = Files.readAllBytes(resource("../compare/non-disaggregated.json")); // any bytes: shown as is
        // a reasoning model's run: TTFO beside TTFT, in the summary and as a histogram
        ObjectNode result =
                ResultFiles.objects(resource("detailed.json")).get(0).deepCopy();
        result.put("mean_ttfo_ms", 321.5).put("median_ttfo_ms", 300.0).put("p99_ttfo_ms", 654.25);
        ArrayNode ttfos = result.putArray("ttfos");
        result.get("ttfts").forEach(ttft -> ttfos.add(ttft.asDouble() + 0.1));
        String html = HtmlReport.run(new HtmlReport.Run(
                "TokenPulse run r1",
                ResultReader.read(result),
                Optional.of(png),
                "",
                List.of(
                        new HtmlReport.Request(0, 0.2, 0.5),
                        new HtmlReport.Request(0.1, Double.NaN, 0.1),
                        new HtmlReport.Request(0.3, 0.6, 1.2)),
                Map.of("no_response", 1L)));

        String dom = loaded("run.html", html);

        assertThat(pointsDrawn(dom, "run-timeline")).isEqualTo(3);
        assertThat(dom).contains("<img class=\"windows\" alt=\"window metrics\" src=\"data:image/png;base64,");
        assertThat(dom).contains("<td>no_response</td><td>1</td>");
        assertThat(dom).contains("<th>Mean TTFO (ms)</th>", "<td>321.50</td>", "<td>654.25</td>");
        assertThat(dom).contains("TTFO histogram (18 samples, ms)"); // the 2 failed requests left out
        assertThat(pointsDrawn(dom, "run-ttfo")).isEqualTo(30);
    }

    @Test
    void aSweepShowsEveryPointAndItsCharts() throws Exception {
        String html = ReportFile.sweep(resource("sweep"));

        String dom = loaded("sweep.html", html);

        assertThat(dom).contains("<title>TokenPulse sweep sweep1</title>");
        assertThat(dom).contains("<td>request_rate=2 {\"request_rate\":2}</td><td>200</td>", "<td>63.68</td>");
        assertThat(dom).contains("<td>request_rate=4 {\"request_rate\":4}</td>", "<td>74.93</td>");
        assertThat(dom).contains("Point request_rate=8: no result file (status failed)");
        assertThat(pointsDrawn(dom, "sweep-ttft")).isEqualTo(2);
        assertThat(html).contains("\"xLabel\":\"request_rate\",\"x\":[2.0,4.0]");
        assertThat(pointsDrawn(dom, "sweep-throughput")).isEqualTo(2);
        assertThat(dom).contains("Point 2: request_rate=4");
        assertThat(dom).contains("<img class=\"pareto\" alt=\"Pareto chart\" src=\"data:image/png;base64,");
    }

    @Test
    void aSearchShowsWhatItFoundAndItsVerdictOnEachPoint() throws Exception {
        String html = ReportFile.sweep(resource("search"));

        String dom = loaded("search.html", html);

        assertThat(dom)
                .contains("<h2>Search</h2>")
                .contains("<p class=\"search\">Search over request_rate (P99 TTFT &lt;= 2000 ms, 3 points): highest"
                        + " load that met the SLO: request_rate=2 (the lowest that missed it: 3)</p>")
                .contains("<tr><td>request_rate=2</td><td>met the SLO</td></tr>")
                .contains("<tr><td>request_rate=4</td><td>missed the SLO: stopped early (the live P99 TTFT of first"
                        + " tokens per 1 s window exceeded 4000 ms 3 times in a row (4512, 4890, 5230 ms))</td></tr>")
                .contains("<tr><td>request_rate=3</td><td>missed the SLO: the run failed</td></tr>");
        assertThat(dom.indexOf("<h2>Search</h2>")).isLessThan(dom.indexOf("<h2>All points</h2>"));
        assertThat(pointsDrawn(dom, "sweep-ttft")).isEqualTo(2);
        assertThat(ReportFile.sweep(resource("sweep")))
                .as("a grid has no search")
                .doesNotContain("Search");
    }

    @Test
    void aPageThatAsksForTheNetworkIsCaught() throws Exception {
        Path page = Files.writeString(
                dir.resolve("remote.html"), Html.page("remote", "<img src=\"http://example.com/chart.png\">", ""));

        assertThat(chromium.load(page).requests()).containsExactly("http://example.com/chart.png");
    }
}
