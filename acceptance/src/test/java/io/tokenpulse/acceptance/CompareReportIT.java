package io.tokenpulse.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code compare} and {@code report} of result files through the shipped {@code ./tokenpulse}: seed
 * 003's table from a vLLM file, a CSV with a baseline, the HTML report of a file and of a sweep
 * folder, and their bad inputs. The files are the cli module's test fixtures; the stored-run forms
 * ({@code --run-id}, {@code bench --report}) are in cli's {@code ChartCommandIT}.
 */
class CompareReportIT {
    static final Path FIXTURES = Tokenpulse.ROOT.resolve("cli/src/test/resources");
    static final Path VLLM = FIXTURES.resolve("compare/non-disaggregated.json");
    static final Path EARLY_VLLM = FIXTURES.resolve("compare/early-2024.json");

    @TempDir
    static Path home;

    @TempDir
    static Path logs;

    @TempDir
    static Path out;

    static Tokenpulse tokenpulse;

    @BeforeAll
    static void setUp() {
        tokenpulse = new Tokenpulse(home, logs);
    }

    private static Tokenpulse.Result run(String... args) {
        return tokenpulse.run(Duration.ofMinutes(2), args);
    }

    @Test
    void compareReproducesSeed003sHeaderAndFirstRow() throws IOException {
        List<String> seed;
        seed = Files.readAllLines(Path.of("..", "testdata", "vllm", "mooncake-comparison-table.txt"));
        int header = seed.indexOf(seed.stream()
                .filter(line -> line.startsWith("| Backend/Setting"))
                .findFirst()
                .orElseThrow());

        Tokenpulse.Result compare = run("compare", VLLM.toString(), "--label", "Non-disaggregated");

        assertThat(compare.exitCode()).as(compare.toString()).isZero();
        assertThat(compare.stdoutLines()).hasSize(3);
        assertThat(compare.stdoutLines().get(0)).isEqualTo(seed.get(header));
        assertThat(compare.stdoutLines().get(2)).isEqualTo(seed.get(header + 2));
        compare.assertQuietStderr();
    }

    @Test
    void compareWritesACsvWithABaselineAndBlanksForMissingMetrics() throws IOException {
        Path csv = out.resolve("table.csv");

        Tokenpulse.Result compare = run(
                "compare",
                VLLM.toString(),
                EARLY_VLLM.toString(),
                "--baseline",
                "1",
                "--format",
                "csv",
                "--output",
                csv.toString());

        assertThat(compare.exitCode()).as(compare.toString()).isZero();
        assertThat(compare.stdoutLines()).containsExactly("Comparison saved to " + csv);
        List<String> lines = Files.readAllLines(csv);
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).startsWith("Backend/Setting,Successful Requests,Successful Requests vs baseline,");
        assertThat(lines.get(2))
                .startsWith("early-2024,100,-50.0%,50.00,-49.6%,")
                .endsWith(",,,,,,");
    }

    @Test
    void compareReadsInferencePerfsReportAndSaysWhereTheDefinitionsDiffer() {
        Tokenpulse.Result compare = run(
                "compare",
                VLLM.toString(),
                FIXTURES.resolve("compare/summary_lifecycle_metrics.json").toString(),
                FIXTURES.resolve("compare/guidellm-benchmarks.json").toString());

        assertThat(compare.exitCode()).as(compare.toString()).isZero();
        List<String> lines = compare.stdoutLines();
        // inference-perf's row: its seconds in ms, its pooled ITL beside vLLM's
        assertThat(lines.get(3))
                .startsWith("| summary_lifecycle_metrics ")
                .contains("| 100 ", "| 52.50 ", "| 25600 ", "| 12000 ", "| 672.10 ", "| 1901.20 ", "| 65.12 ");
        assertThat(lines).contains("Where the tools' definitions differ (docs/rescore.md):");
        assertThat(lines)
                .anyMatch(line -> line.startsWith("- TPOT: ")
                        && line.contains("GuideLLM: TPOT is (last token − send)/N per request, TTFT included"))
                .anyMatch(line ->
                        line.startsWith("- ITL: vLLM/TokenPulse: ITL is every gap between consecutive events, pooled"))
                .anyMatch(line -> line.startsWith("- Medians and P99s: "));
        compare.assertQuietStderr();
    }

    @Test
    void reportWritesOneSelfContainedPageOfAFileAndOfASweep() throws IOException {
        Path file = out.resolve("result.html");
        Path sweep = out.resolve("sweep.html");

        Tokenpulse.Result result =
                run("report", FIXTURES.resolve("report/detailed.json").toString(), "--output", file.toString());
        Tokenpulse.Result sweepReport =
                run("report", "--sweep", FIXTURES.resolve("report/sweep").toString(), "--output", sweep.toString());

        assertThat(result.exitCode()).as(result.toString()).isZero();
        assertThat(result.stdoutLines()).containsExactly("Report saved to " + file);
        assertThat(Files.readString(file))
                .contains("<title>TokenPulse result detailed.json</title>", "<td>461.52</td>", "uPlot")
                .doesNotContainPattern("(src|href)=\"(https?:)?//");
        assertThat(sweepReport.exitCode()).as(sweepReport.toString()).isZero();
        assertThat(Files.readString(sweep)).contains("<title>TokenPulse sweep sweep1</title>", "<td>74.93</td>");
    }

    @Test
    void aSearchsReportSaysWhatItFoundAndHowEachPointFared() throws IOException {
        Path search = out.resolve("search.html");

        Tokenpulse.Result report =
                run("report", "--sweep", FIXTURES.resolve("report/search").toString(), "--output", search.toString());

        assertThat(report.exitCode()).as(report.toString()).isZero();
        assertThat(Files.readString(search))
                .contains("highest load that met the SLO: request_rate=2 (the lowest that missed it: 3)</p>")
                .contains("<tr><td>request_rate=2</td><td>met the SLO</td></tr>")
                .contains("<tr><td>request_rate=3</td><td>missed the SLO: the run failed</td></tr>");
    }

    @Test
    void badInputsAreOneLineSayingWhatToChange() throws IOException {
        Path unknown = Files.writeString(out.resolve("other.json"), "{\"hello\": 1}");

        Tokenpulse.Result unknownFormat = run("compare", unknown.toString());
        Tokenpulse.Result twoSources = run(
                "report",
                VLLM.toString(),
                "--sweep",
                out.toString(),
                "--output",
                out.resolve("x.html").toString());
        Tokenpulse.Result notHtml =
                run("report", VLLM.toString(), "--output", out.resolve("x.txt").toString());

        assertThat(unknownFormat.exitCode()).isEqualTo(2);
        assertThat(unknownFormat.stderrLines())
                .as(unknownFormat.toString())
                .containsExactly("compare: " + unknown + ": unknown result format (none of the keys completed,"
                        + " mean_ttft_ms, benchmarks, time_to_first_token, successes); expected a result file of vLLM or"
                        + " TokenPulse (--save-result), GuideLLM (benchmarks.json), AIPerf (profile_export_aiperf.json)"
                        + " or inference-perf (summary_lifecycle_metrics.json)");
        assertThat(twoSources.exitCode()).isEqualTo(2);
        assertThat(twoSources.stderrLines())
                .as(twoSources.toString())
                .containsExactly("report: give exactly one of RESULT.json, --run-id ID or --sweep DIR, got 2");
        assertThat(notHtml.exitCode()).isEqualTo(2);
        assertThat(notHtml.stderrLines())
                .as(notHtml.toString())
                .containsExactly("report: --output must name a .html file, got " + out.resolve("x.txt"));
        assertThat(out.resolve("x.html")).doesNotExist();
    }
}
