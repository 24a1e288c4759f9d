package io.tokenpulse.cli.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tokenpulse.aggregator.report.ResultReader;
import io.tokenpulse.cli.report.CompareTable.Column;
import io.tokenpulse.runner.UserError;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class CompareTableTest {

    static Path resource(String name) {
        try {
            return Path.of(
                    CompareTableTest.class.getResource("/compare/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<String> seed003() throws IOException {
        return Files.readAllLines(Path.of("..", "testdata", "vllm", "mooncake-comparison-table.txt"));
    }

    private static CompareTable.Row labelled(String label, CompareTable.Row row) {
        return new CompareTable.Row(label, row.values());
    }

    @Test
    void reproducesSeed003sHeaderAndFirstRowByteForByte() throws IOException {
        List<String> seed = seed003();
        int header = seed.indexOf(seed.stream()
                .filter(l -> l.startsWith("| Backend/Setting"))
                .findFirst()
                .orElseThrow());
        CompareTable.Row row = labelled(
                "Non-disaggregated",
                ResultFiles.rows(resource("non-disaggregated.json")).get(0));

        List<String> table = new CompareTable(List.of(row), OptionalInt.empty())
                .render(CompareTable.Format.MD)
                .lines()
                .toList();

        assertThat(table.get(0)).isEqualTo(seed.get(header));
        assertThat(table.get(2)).isEqualTo(seed.get(header + 2));
    }

    @Test
    void readsTheFirstVllmKeysAndLeavesWhatTheyLackBlank() {
        CompareTable.Row row = ResultFiles.rows(resource("early-2024.json")).get(0);

        assertThat(row.label()).isEqualTo("early-2024");
        assertThat(row.value(Column.REQUEST_THROUGHPUT)).isEqualTo(2.0); // request_inthroughput
        assertThat(row.value(Column.TOTAL_THROUGHPUT)).isEqualTo(500.0); // input + output throughput
        assertThat(row.value(Column.MEDIAN_TTFT)).isEqualTo(110.25);
        assertThat(row.value(Column.MEAN_ITL)).isNaN();
        String csv = new CompareTable(List.of(row), OptionalInt.empty()).render(CompareTable.Format.CSV);
        assertThat(csv.lines().toList())
                .containsExactly(
                        "Backend/Setting,Successful Requests,Duration (s),Total Input Tokens,Total Generated Tokens,"
                                + "Req Throughput (req/s),Output Token Throughput (tok/s),Total Token Throughput (tok/s),"
                                + "Mean TTFT (ms),Median TTFT (ms),P99 TTFT (ms),Mean TPOT (ms),Median TPOT (ms),"
                                + "P99 TPOT (ms),Mean ITL (ms),Median ITL (ms),P99 ITL (ms)",
                        "early-2024,100,50.00,20000,5000,2.00,100.00,500.00,120.50,110.25,300.00,20.00,19.50,40.00,,,");
    }

    @Test
    void readsGuideLlmsAndAiPerfsResults() {
        CompareTable.Row guide =
                ResultFiles.rows(resource("guidellm-benchmarks.json")).get(0);
        CompareTable.Row aiperf =
                ResultFiles.rows(resource("profile_export_aiperf.json")).get(0);

        assertThat(guide.values())
                .containsExactly(
                        95,
                        30.5,
                        4750,
                        1900,
                        3.1,
                        62.3,
                        218.0,
                        40.0,
                        30.0,
                        70.0,
                        Double.NaN,
                        Double.NaN,
                        Double.NaN,
                        12.0,
                        11.0,
                        25.0,
                        15.0,
                        10.0,
                        30.0,
                        Double.NaN);
        assertThat(aiperf.value(Column.SUCCESSFUL)).isEqualTo(200);
        assertThat(aiperf.value(Column.DURATION)).isEqualTo(15.196591969000002);
        assertThat(aiperf.value(Column.INPUT_TOKENS)).isEqualTo(110000);
        assertThat(aiperf.value(Column.P99_TTFT)).isEqualTo(4119.33);
        assertThat(aiperf.value(Column.MEDIAN_TPOT)).isEqualTo(51.98); // AIPerf's inter_token_latency
        assertThat(aiperf.value(Column.P99_TTFO)).isEqualTo(4800.0); // time_to_first_output_token
        assertThat(aiperf.value(Column.TOTAL_THROUGHPUT)).isNaN();
        assertThat(aiperf.value(Column.MEAN_ITL)).isNaN();
    }

    @Test
    void ttfoColumnsFollowTtftsOnlyWhenARowHasThem() {
        JsonNode plain = ResultFiles.objects(resource("non-disaggregated.json")).get(0);
        ObjectNode reasoning = plain.deepCopy();
        reasoning.put("mean_ttfo_ms", 250.5).put("median_ttfo_ms", 240.0).put("p99_ttfo_ms", 400.0);
        CompareTable.Row plainRow = ResultFiles.row("plain", ResultReader.read(plain));

        List<String> md = new CompareTable(
                        List.of(plainRow, ResultFiles.row("reasoning", ResultReader.read(reasoning))),
                        OptionalInt.of(0))
                .render(CompareTable.Format.MD)
                .lines()
                .toList();

        assertThat(md.get(0))
                .contains("| P99 TTFT (ms) | Mean TTFO (ms) | Median TTFO (ms) | P99 TTFO (ms) | Mean TPOT");
        assertThat(md.get(2)).as("the row without TTFO has blanks").contains("|" + " ".repeat(16) + "|");
        assertThat(md.get(3)).contains("| 250.50 ", "| 240.00 ", "| 400.00 ");
        assertThat(new CompareTable(List.of(plainRow), OptionalInt.empty()).render(CompareTable.Format.CSV))
                .doesNotContain("TTFO");
    }

    @Test
    void anAudioRunsRtfxIsTheLastColumnOnlyWhenARowHasAudio() {
        JsonNode plain = ResultFiles.objects(resource("non-disaggregated.json")).get(0);
        ObjectNode noAudio = plain.deepCopy();
        noAudio.put("rtfx", 0.0); // current vLLM writes 0.0 for a run without audio
        ObjectNode audio = plain.deepCopy();
        audio.put("rtfx", 12.345);
        CompareTable.Row noAudioRow = ResultFiles.row("text", ResultReader.read(noAudio));

        List<String> csv = new CompareTable(
                        List.of(noAudioRow, ResultFiles.row("asr", ResultReader.read(audio))), OptionalInt.empty())
                .render(CompareTable.Format.CSV)
                .lines()
                .toList();

        assertThat(csv.get(0)).endsWith(",P99 ITL (ms),RTFx");
        assertThat(csv.get(1))
                .as("0.0: no audio, a blank cell")
                .startsWith("text,")
                .endsWith(",");
        assertThat(csv.get(2)).startsWith("asr,").endsWith(",12.35");
        assertThat(new CompareTable(List.of(noAudioRow), OptionalInt.empty()).render(CompareTable.Format.CSV))
                .doesNotContain("RTFx");
    }

    @Test
    void baselineAddsRelativeChangesAndDifferentMetricSetsGiveBlanks() {
        List<CompareTable.Row> rows = new ArrayList<>();
        rows.add(ResultFiles.rows(resource("non-disaggregated.json")).get(0));
        rows.add(ResultFiles.rows(resource("early-2024.json")).get(0));
        CompareTable table = new CompareTable(rows, OptionalInt.of(0));

        assertThat(table.delta(1, Column.SUCCESSFUL)).isEqualTo("-50.0%");
        assertThat(table.delta(1, Column.MEAN_ITL)).isEmpty();
        assertThat(table.delta(0, Column.SUCCESSFUL)).isEmpty();
        String md = table.render(CompareTable.Format.MD);
        assertThat(md.lines().toList().get(3))
                .startsWith("| early-2024 ")
                .contains("| 100 (-50.0%) ")
                .endsWith("|" + " ".repeat(15) + "|" + " ".repeat(17) + "|" + " ".repeat(13) + "|");
        String html = table.render(CompareTable.Format.HTML);
        assertThat(html)
                .contains("<tr class=\"baseline\"><td>non-disaggregated</td>")
                .contains("<small>-50.0%</small>");
    }

    @Test
    void anUnknownFormatIsOneLineNamingTheFileAndWhatWasExpected() {
        assertThatThrownBy(() -> ResultFiles.rows(resource("unknown.json")))
                .isInstanceOf(UserError.class)
                .hasMessageContaining("unknown.json: unknown result format")
                .hasMessageContaining("GuideLLM (benchmarks.json), AIPerf (profile_export_aiperf.json)"
                        + " or inference-perf (summary_lifecycle_metrics.json)")
                .hasMessageNotContaining("\n");
    }
}
