package io.tokenpulse.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tokenpulse.aggregator.definitions.Comparison;
import io.tokenpulse.aggregator.definitions.Definitions;
import io.tokenpulse.aggregator.definitions.TimedRequest;
import io.tokenpulse.aggregator.definitions.TimedRun;
import io.tokenpulse.aggregator.report.ResultReader;
import io.tokenpulse.charts.ParetoChart;
import io.tokenpulse.charts.RunChart;
import io.tokenpulse.cli.BrowserPage;
import io.tokenpulse.cli.HeadlessChromium;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The report pages in headless Chromium at a phone's, a laptop's and a wide screen's width (390,
 * 1024 and 1600 px, through DevTools' device metrics): nothing runs off the right edge (the page
 * never scrolls sideways; a wide table scrolls inside its own box), every chart is drawn, a real
 * mouse over a chart shows its values in the legend and a click on a legend entry hides that
 * series, and the page logs no error. Screenshots go to {@code target/layout-PAGE-WIDTH.png}.
 */
class HtmlReportLayoutTest {
    @TempDir
    static Path dir;

    static BrowserPage browser;

    @BeforeAll
    static void chromium() throws IOException, InterruptedException {
        HeadlessChromium.assumeInstalled();
        browser = BrowserPage.start(Files.createDirectories(dir.resolve("profile")));
    }

    @AfterAll
    static void close() {
        if (browser != null) {
            browser.close();
        }
    }

    static Stream<Arguments> pagesAndWidths() {
        return Stream.of("run", "result", "sweep")
                .flatMap(page -> Stream.of(390, 1024, 1600).map(width -> Arguments.of(page, width)));
    }

    /** The three pages: a stored run's (timeline, windows, failures), a detailed result file's, a sweep's. */
    static Path page(String name) throws IOException {
        Path page = dir.resolve(name + ".html");
        if (Files.exists(page)) {
            return page;
        }
        String html = switch (name) {
            case "run" ->
                HtmlReport.run(new HtmlReport.Run(
                        "TokenPulse run r1",
                        ResultReader.read(ResultFiles.objects(HtmlReportBrowserTest.resource("detailed.json"))
                                .get(0)),
                        Optional.of(widePng()),
                        "",
                        timeline(40),
                        Map.of("no_response", 1L),
                        Optional.of(Comparison.of(
                                "r1", Optional.empty(), timed(40), Definitions.parse(Definitions.known())))));
            case "result" -> ReportFile.resultFile(HtmlReportBrowserTest.resource("detailed.json"));
            default -> ReportFile.sweep(HtmlReportBrowserTest.resource("sweep"));
        };
        return Files.writeString(page, html);
    }

    /** A picture 1 500 px wide, as the window metrics' chart is: the page must shrink it. */
    private static byte[] widePng() {
        List<ParetoChart.Point> points = List.of(
                ParetoChart.point("a", 20, 900).orElseThrow(),
                ParetoChart.point("b", 35, 1400).orElseThrow());
        return ParetoChart.png("window metrics stand-in", points, new RunChart.Size(1500, 800));
    }

    /**
     * The same requests' timings for the tools' definitions: 8 events each, the first after 0.2 s,
     * then one every 60 to 120 ms (so the tools' ITL and TPOT rules part).
     */
    private static TimedRun timed(int requests) {
        long ms = 1_000_000;
        List<TimedRequest> timed = new java.util.ArrayList<>();
        for (int i = 0; i < requests; i++) {
            long sent = i * 50 * ms;
            long[] chunks = new long[8];
            chunks[0] = sent + 200 * ms;
            for (int c = 1; c < chunks.length; c++) {
                chunks[c] = chunks[c - 1] + (60 + (i * c) % 61) * ms;
            }
            timed.add(new TimedRequest(sent, chunks, new boolean[8], chunks[7] + 5 * ms, 8, 32, true));
        }
        return new TimedRun(0, timed.get(requests - 1).endNs(), timed);
    }

    /** Requests sent every 50 ms, each waiting 0.2 s for its first token and streaming for 0.5 s. */
    private static List<HtmlReport.Request> timeline(int requests) {
        return java.util.stream.IntStream.range(0, requests)
                .mapToObj(i -> new HtmlReport.Request(i * 0.05, i * 0.05 + 0.2, i * 0.05 + 0.7))
                .toList();
    }

    @ParameterizedTest(name = "{0} page at {1} px")
    @MethodSource("pagesAndWidths")
    void fitsTheWidthDrawsEveryChartAndAnswersTheMouse(String name, int width) throws Exception {
        browser.open(page(name), width, 900);

        JsonNode layout = browser.eval("""
                (() => {
                  const right = el => Math.round(el.getBoundingClientRect().right);
                  const inScrollBox = el => {
                    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
                      if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(p).overflowX)) return true;
                    }
                    return false;
                  };
                  return {
                    viewport: window.innerWidth,
                    page: document.documentElement.scrollWidth,
                    // the elements that reach past the right edge, to say what to fix; inside a box that
                    // scrolls (a wide table) they may
                    past: [...document.body.querySelectorAll('*')]
                      .filter(e => right(e) > document.documentElement.clientWidth && !inScrollBox(e))
                      .slice(0, 8).map(e => e.tagName + '.' + e.className + '#' + e.id + ' ' + right(e)),
                    charts: [...document.querySelectorAll('.chart')].map(c => ({
                      id: c.id, canvas: c.querySelector('canvas') !== null, right: right(c.querySelector('.uplot') || c) })),
                    boxes: [...document.querySelectorAll('table, img, pre, h1, h2, p')].map(right),
                  };
                })()""");
        assertThat(layout.get("past"))
                .as("elements past the right edge at %d px", width)
                .isEmpty();
        // a phone's browser zooms out to show a page wider than the screen: its viewport grows
        assertThat(layout.get("viewport").asInt()).isEqualTo(width);
        assertThat(layout.get("page").asInt())
                .as(
                        "the page's width at %d px: it must not scroll sideways; past the edge: %s",
                        width, layout.get("past"))
                .isLessThanOrEqualTo(width);
        assertThat(layout.get("charts").size()).as("charts").isGreaterThanOrEqualTo(2);
        for (JsonNode chart : layout.get("charts")) {
            assertThat(chart.get("canvas").asBoolean())
                    .as("chart %s drawn", chart.get("id"))
                    .isTrue();
            assertThat(chart.get("right").asInt())
                    .as("chart %s's right edge", chart.get("id"))
                    .isLessThanOrEqualTo(width);
        }
        for (JsonNode right : layout.get("boxes")) {
            assertThat(right.asInt())
                    .as("a table's, image's or text's right edge")
                    .isLessThanOrEqualTo(width);
        }

        // the picture before the mouse moves: docs/images/ shows it
        byte[] png = browser.screenshot(3000);
        Path shot = Files.write(Path.of("target", "layout-" + name + "-" + width + ".png"), png);
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
        assertThat(image.getWidth()).isEqualTo(width);
        assertThat(colours(image)).as("colours in %s", shot).isGreaterThan(20);

        String chart = layout.get("charts").get(0).get("id").asText();
        assertThat(legend(chart).get(1).get("value").asText())
                .as("before hovering")
                .isEqualTo("--");
        JsonNode over = browser.eval("(() => { const o = document.querySelector('#" + chart + " .u-over');"
                + " o.scrollIntoView({block: 'center'}); const r = o.getBoundingClientRect();"
                + " return {x: r.left + r.width / 2, y: r.top + r.height / 2}; })()");
        browser.mouseMove(over.get("x").asDouble(), over.get("y").asDouble());
        assertThat(legend(chart).get(1).get("value").asText())
                .as("the legend's value under the mouse")
                .matches("[-0-9.,]+");

        JsonNode entry = browser.eval("(() => { const s = document.querySelectorAll('#" + chart
                + " .u-legend .u-series')[1]; s.scrollIntoView({block: 'center'});"
                + " const r = s.querySelector('.u-label').getBoundingClientRect();"
                + " return {x: r.left + r.width / 2, y: r.top + r.height / 2}; })()");
        browser.click(entry.get("x").asDouble(), entry.get("y").asDouble());
        assertThat(legend(chart).get(1).get("off").asBoolean())
                .as("the series is hidden after a click on its legend entry")
                .isTrue();

        assertThat(browser.errors()).as("errors the page logged").isEmpty();
    }

    /** The legend of a chart: each series' label, value shown and whether it is switched off. */
    private static JsonNode legend(String chart) {
        return browser.eval("[...document.querySelectorAll('#" + chart + " .u-legend .u-series')].map(s => ({"
                + " label: s.querySelector('.u-label').textContent,"
                + " value: s.querySelector('.u-value').textContent, off: s.classList.contains('u-off') }))");
    }

    /** Distinct colours in a sample of the picture: a blank page has one or two. */
    private static int colours(BufferedImage image) {
        Set<Integer> seen = new HashSet<>();
        for (int y = 0; y < image.getHeight(); y += 3) {
            for (int x = 0; x < image.getWidth(); x += 3) {
                seen.add(image.getRGB(x, y));
            }
        }
        return seen.size();
    }
}
