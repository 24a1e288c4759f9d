package io.tokenpulse.cli.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tokenpulse.cli.report.CompareTable.Column;
import io.tokenpulse.cli.report.DefinitionNotes.Tool;
import io.tokenpulse.runner.UserError;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * inference-perf's summary report read by {@code compare} (the fixture follows
 * {@code inference_perf/reportgen/base.py} at {@code 010d12fb}), and the notes on where the
 * tools' definitions differ.
 */
class InferencePerfReportTest {
    @TempDir
    Path dir;

    @Test
    void readsTheSuccessesLatenciesInMsThroughputsAndTokenTotals() {
        CompareTable.Row row = ResultFiles.rows(CompareTableTest.resource("summary_lifecycle_metrics.json"))
                .get(0);

        assertThat(row.label()).isEqualTo("summary_lifecycle_metrics");
        assertThat(row.value(Column.SUCCESSFUL)).isEqualTo(100);
        assertThat(row.value(Column.DURATION)).isEqualTo(52.5); // benchmark_time_seconds
        assertThat(row.value(Column.INPUT_TOKENS)).isEqualTo(25600);
        assertThat(row.value(Column.OUTPUT_TOKENS)).isEqualTo(12000);
        assertThat(row.value(Column.REQUEST_THROUGHPUT)).isEqualTo(1.9048);
        assertThat(row.value(Column.OUTPUT_THROUGHPUT)).isEqualTo(228.57);
        assertThat(row.value(Column.TOTAL_THROUGHPUT)).isEqualTo(716.17);
        assertThat(row.value(Column.MEAN_TTFT)).isCloseTo(672.1, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(row.value(Column.MEDIAN_TTFT)).isCloseTo(614.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(row.value(Column.P99_TTFT)).isCloseTo(1901.2, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(row.value(Column.MEAN_TPOT)).isCloseTo(12.04, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(row.value(Column.P99_ITL)).isCloseTo(65.12, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(row.value(Column.MEAN_TTFO)).isNaN();
    }

    @Test
    void aReportWithoutItsSectionsIsOneLineNamingThem() throws IOException {
        Path old = Files.writeString(
                dir.resolve("summary.json"), "{\"successes\": {\"count\": 3}, \"failures\": {\"count\": 0}}");

        assertThatThrownBy(() -> ResultFiles.rows(old))
                .isInstanceOf(UserError.class)
                .hasMessage(old + ": an inference-perf report without successes.latency, successes.throughput;"
                        + " expected summary_lifecycle_metrics.json of inference-perf 0.2 or later");
    }

    @Test
    void eachFileIsKnownByItsTool() {
        assertThat(DefinitionNotes.tools(CompareTableTest.resource("summary_lifecycle_metrics.json")))
                .containsExactly(Tool.INFERENCE_PERF);
        assertThat(DefinitionNotes.tools(CompareTableTest.resource("guidellm-benchmarks.json")))
                .containsExactly(Tool.GUIDELLM);
        assertThat(DefinitionNotes.tools(CompareTableTest.resource("profile_export_aiperf.json")))
                .containsExactly(Tool.AIPERF);
        assertThat(DefinitionNotes.tools(CompareTableTest.resource("non-disaggregated.json")))
                .containsExactly(Tool.VLLM);
    }

    @Test
    void aLinePerColumnTheToolsDefineDifferently() {
        List<String> lines = DefinitionNotes.lines(EnumSet.of(Tool.VLLM, Tool.GUIDELLM, Tool.INFERENCE_PERF));

        assertThat(lines)
                .anyMatch(line -> line.startsWith("- TPOT: ")
                        && line.contains("GuideLLM: TPOT is (last token − send)/N per request, TTFT included"))
                .anyMatch(line ->
                        line.startsWith("- ITL: vLLM/TokenPulse: ITL is every gap between consecutive events, pooled"))
                .anyMatch(line -> line.startsWith("- Medians and P99s: "));
        assertThat(DefinitionNotes.lines(Set.of(Tool.VLLM)))
                .as("one tool: nothing to explain")
                .isEmpty();
        assertThat(DefinitionNotes.markdown(Set.of(Tool.VLLM))).isEmpty();
    }
}
