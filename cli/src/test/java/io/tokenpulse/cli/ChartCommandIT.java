package io.tokenpulse.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tokenpulse.cli.ReplayCommandIT.Outcome;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bench --save-chart} and {@code --report}, {@code tokenpulse chart}, {@code report --run-id}
 * and {@code compare --run-id} against one short simulated run in an embedded platform.
 */
class ChartCommandIT {
    @TempDir
    static Path dataDir;

    @TempDir
    static Path out;

    static Outcome bench;

    private static BufferedImage png(Path file) throws IOException {
        assertThat(file).exists();
        BufferedImage image = ImageIO.read(file.toFile());
        assertThat(image).as("a PNG ImageIO can read").isNotNull();
        return image;
    }

    @BeforeAll
    static void benchSavesAChart() {
        bench = ReplayCommandIT.execute(
                "bench",
                "--simulate",
                "--simulate-profile",
                "deterministic",
                "--dataset-name",
                "random",
                "--num-prompts",
                "20",
                "--request-rate",
                "50",
                "--random-input-len",
                "32",
                "--random-output-len",
                "8",
                "--ignore-eos",
                "--disable-tqdm",
                "--run-id",
                "c1",
                "--save-chart",
                out.resolve("bench.png").toString(),
                "--report",
                out.resolve("bench.html").toString(),
                "--data-dir",
                dataDir.toString(),
                "--metrics-port",
                "0");
    }

    @Test
    void benchWritesTheChartOfItsRunAfterTheReport() throws IOException {
        assertThat(bench.code()).as(bench.out() + bench.err()).isZero();
        assertThat(bench.out()).contains("============ Serving Benchmark Result ============");
        // Every request of the run is in a window once the chart is drawn.
        assertThat(bench.out().lines().filter(l -> l.startsWith("Chart saved to ")))
                .singleElement()
                .asString()
                .matches("Chart saved to .*bench\\.png \\(\\d+ windows\\)");
        BufferedImage image = png(out.resolve("bench.png"));
        assertThat(image.getWidth()).isEqualTo(1500);
        assertThat(image.getHeight()).isEqualTo(800);
    }

    /** A stored run's page: its figures, the windows' PNG inlined, one request per timeline point. */
    private static void assertRunPage(Path page) throws IOException {
        String html = Files.readString(page);
        assertThat(html).contains("<title>TokenPulse run c1</title>");
        assertThat(html).contains("<tr><td>TokenPulse run c1</td><td>20</td>");
        assertThat(html).contains("<img class=\"windows\" alt=\"window metrics\" src=\"data:image/png;base64,");
        assertThat(html).containsPattern("\"id\":\"run-timeline\",[^\\]]*\"x\":\\[1\\.0(,\\d+\\.0){19}\\]");
        assertThat(html).contains("TTFT histogram (20 samples, ms)");
        assertThat(html).contains("<h2>Failures by reason</h2>\n<p>None.</p>");
        // the run under every tool's definitions, as rescore prints it; vLLM's column is the block's figures
        assertThat(html)
                .contains(
                        "<h2>Every tool's numbers</h2>",
                        "<th>metric</th><th>vllm</th><th>guidellm</th><th>aiperf</th><th>sglang</th><th>inference-perf</th>",
                        "<tr><td>Successful requests</td><td>20</td><td>20</td><td>20</td><td>20</td><td>20</td></tr>",
                        "<tr><td>TTFT mean (ms)</td><td>" + printed("Mean TTFT (ms)") + "</td>",
                        "<tr><td>TPOT mean (ms)</td><td>" + printed("Mean TPOT (ms)") + "</td>",
                        "<h3>Why they differ (by more than 1 %)</h3>");
    }

    @Test
    void benchWritesTheReportOfItsRun() throws IOException {
        assertThat(bench.code()).as(bench.out() + bench.err()).isZero();
        assertThat(bench.out()).contains("Report saved to " + out.resolve("bench.html"));
        assertRunPage(out.resolve("bench.html"));
    }

    @Test
    void reportAndCompareReadAStoredRun() throws IOException {
        Outcome report = ReplayCommandIT.execute(
                "report",
                "--run-id",
                "c1",
                "--output",
                out.resolve("c1.html").toString(),
                "--data-dir",
                dataDir.toString());
        assertThat(report.code()).as(report.out() + report.err()).isZero();
        assertRunPage(out.resolve("c1.html"));

        Outcome compare = ReplayCommandIT.execute(
                "compare", "--run-id", "c1", "--format", "csv", "--data-dir", dataDir.toString());
        assertThat(compare.code()).as(compare.out() + compare.err()).isZero();
        // the figures bench printed for the run, in the columns of Mooncake's table (testdata/vllm)
        List<String> cells = List.of(compare.out().lines().toList().get(1).split(",", -1));
        assertThat(cells.subList(0, 5)).containsExactly("c1", "20", printed("Benchmark duration (s)"), "640", "160");
        assertThat(cells.get(8)).isEqualTo(printed("Mean TTFT (ms)"));
        assertThat(cells.get(13)).isEqualTo(printed("P99 TPOT (ms)"));
        assertThat(cells.get(16)).isEqualTo(printed("P99 ITL (ms)"));
    }

    private static String printed(String name) {
        return bench.out()
                .lines()
                .filter(line -> line.startsWith(name + ":"))
                .findFirst()
                .orElseThrow()
                .substring(name.length() + 1)
                .strip();
    }

    @Test
    void chartDrawsAStoredRunAtTheAskedSize() throws IOException {
        Outcome chart = ReplayCommandIT.execute(
                "chart",
                "--run-id",
                "c1",
                "--output",
                out.resolve("c1.png").toString(),
                "--size",
                "1000x600",
                "--data-dir",
                dataDir.toString());

        assertThat(chart.code()).as(chart.out() + chart.err()).isZero();
        BufferedImage image = png(out.resolve("c1.png"));
        assertThat(image.getWidth()).isEqualTo(1000);
        assertThat(image.getHeight()).isEqualTo(600);
    }

    @Test
    void unknownRunIsOneLineListingTheRunsSeen() {
        Outcome chart = ReplayCommandIT.execute(
                "chart",
                "--run-id",
                "nope",
                "--output",
                out.resolve("nope.png").toString(),
                "--data-dir",
                dataDir.toString());

        assertThat(chart.code()).isEqualTo(1);
        assertThat(chart.err().lines().toList())
                .singleElement()
                .asString()
                .matches(
                        "chart: no run nope in topic tokenpulse\\.runs; runs seen: (c2, )?c1 \\(latest first, up to 10\\)");
        assertThat(out.resolve("nope.png")).doesNotExist();
    }

    @Test
    void runWithoutWindowsIsOneLine() {
        ReplayCommandIT.publishOnlyRunStarted(dataDir, "c2");
        Outcome chart = ReplayCommandIT.execute(
                "chart",
                "--run-id",
                "c2",
                "--output",
                out.resolve("c2.png").toString(),
                "--wait-s",
                "1",
                "--data-dir",
                dataDir.toString());

        assertThat(chart.code()).isEqualTo(1);
        assertThat(chart.err().lines().toList())
                .containsExactly(
                        "chart: run c2 has no window metrics in topic"
                                + " tokenpulse.window-metrics after waiting 1 s; did any of its requests finish, and did its aggregator run?");
    }

    @Test
    void badOutputOrSizeFailsBeforeConnecting() {
        Outcome notPng = ReplayCommandIT.execute(
                "chart", "--run-id", "c1", "--output", out.resolve("c1.jpg").toString());
        Outcome noFolder = ReplayCommandIT.execute(
                "chart",
                "--run-id",
                "c1",
                "--output",
                out.resolve("missing/c1.png").toString());
        Outcome badSize = ReplayCommandIT.execute(
                "chart", "--run-id", "c1", "--output", out.resolve("c1.png").toString(), "--size", "big");

        assertThat(notPng.code()).isEqualTo(2);
        assertThat(notPng.err().lines().toList())
                .containsExactly("chart: --output must name a .png file, got " + out.resolve("c1.jpg"));
        assertThat(noFolder.err().lines().toList())
                .singleElement()
                .asString()
                .startsWith("chart: --output " + out.resolve("missing/c1.png") + ": folder ")
                .endsWith(" does not exist");
        assertThat(badSize.err().lines().toList())
                .containsExactly("chart: --size: chart size must be WIDTHxHEIGHT in pixels, e.g. 1500x800; got 'big'");
    }

    @Test
    void benchRefusesABadChartPathBeforeTheRun() {
        Outcome refused = ReplayCommandIT.execute(
                "bench",
                "--simulate",
                "--dataset-name",
                "random",
                "--num-prompts",
                "1",
                "--save-chart",
                out.resolve("run.svg").toString(),
                "--data-dir",
                dataDir.toString(),
                "--metrics-port",
                "0");

        assertThat(refused.code()).isEqualTo(2);
        assertThat(refused.err().lines().toList())
                .containsExactly("bench: --save-chart must name a .png file, got " + out.resolve("run.svg"));
    }
}
