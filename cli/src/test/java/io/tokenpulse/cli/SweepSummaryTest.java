package io.tokenpulse.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tokenpulse.aggregator.report.BenchResult;
import io.tokenpulse.aggregator.report.ResultReader;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SweepSummaryTest {

    private static BenchResult result(String json) throws Exception {
        return ResultReader.read(new ObjectMapper().readTree(json));
    }

    @Test
    void confidenceIntervalIsStudentT() {
        // 1, 2, 3: mean 2, s = 1, t(0.975, 2) = 4.3027, half-width 4.3027 / sqrt(3) = 2.4841
        SweepSummary.Estimate e = SweepSummary.Estimate.of(List.of(1.0, 2.0, 3.0));

        assertThat(e.mean()).isEqualTo(2.0);
        assertThat(e.halfWidth()).isCloseTo(2.4841, within(1e-4));
        assertThat(SweepSummary.Estimate.of(List.of(5.0)).halfWidth()).isZero();
    }

    @Test
    void tableHasSeed003sColumnsAfterTheSweptOnes() throws Exception {
        SweepSummary summary = new SweepSummary(
                List.of("num_prompts"),
                List.of(
                        new SweepSummary.Row(
                                Map.of("num_prompts", "4"),
                                List.of(result("{\"completed\": 4, \"duration\": 1.234, \"mean_ttft_ms\": 10.0}"))),
                        new SweepSummary.Row(Map.of("num_prompts", "8"), List.of())),
                1);

        List<String> md = summary.markdown().lines().toList();
        assertThat(md.get(0))
                .startsWith("| num_prompts | Successful Requests | Duration (s) | Total Input Tokens |")
                .endsWith("| Mean ITL (ms) | Median ITL (ms) | P99 ITL (ms) |");
        assertThat(md.get(2)).startsWith("| 4 | 4 | 1.23 |  |  |  |  |  | 10.00 |");
        assertThat(md.get(3)).startsWith("| 8 |  |  |");
        assertThat(summary.csv().lines().toList().get(1)).startsWith("4,1,4,1.23,,");
        assertThat(summary.markdown()).as("no point thought").doesNotContain("TTFO");
    }

    @Test
    void aPointWithTtfoAddsItsColumnsAfterTtfts() throws Exception {
        SweepSummary summary = new SweepSummary(
                List.of("num_prompts"),
                List.of(
                        new SweepSummary.Row(
                                Map.of("num_prompts", "4"),
                                List.of(
                                        result(
                                                "{\"p99_ttft_ms\": 12.0, \"mean_ttfo_ms\": 30.0, \"p99_ttfo_ms\": 45.0, \"mean_tpot_ms\": 5.0}"))),
                        new SweepSummary.Row(Map.of("num_prompts", "8"), List.of(result("{\"p99_ttft_ms\": 14.0}")))),
                1);

        List<String> md = summary.markdown().lines().toList();
        // each TTFO figure a point has gets its column (no median here)
        assertThat(md.get(0)).contains("| P99 TTFT (ms) | Mean TTFO (ms) | P99 TTFO (ms) | Mean TPOT");
        assertThat(md.get(2)).contains("| 12.00 | 30.00 | 45.00 | 5.00 |");
        assertThat(md.get(3)).contains("| 14.00 |  |  |  |");
    }

    @Test
    void repeatedPointsShowMeanAndHalfWidth() throws Exception {
        SweepSummary summary = new SweepSummary(
                List.of("request_rate"),
                List.of(new SweepSummary.Row(
                        Map.of("request_rate", "2"),
                        List.of(
                                result("{\"completed\": 1, \"mean_ttft_ms\": 1.0}"),
                                result("{\"completed\": 2, \"mean_ttft_ms\": 2.0}"),
                                result("{\"completed\": 3, \"mean_ttft_ms\": 3.0}")))),
                3);

        assertThat(summary.markdown().lines().toList().get(2)).startsWith("| 2 | 3 | 2.00 ± 2.48 |");
        assertThat(summary.csv().lines().toList().get(0)).contains("\"Mean TTFT (ms)\",\"Mean TTFT (ms) ±95%\"");
    }

    @Test
    void chartPointsAreMeansAgainstTheFirstSweptNumber() throws Exception {
        SweepSummary summary = new SweepSummary(
                List.of("num_prompts", "random_input_len"),
                List.of(new SweepSummary.Row(
                        Map.of("num_prompts", "4", "random_input_len", "80"),
                        List.of(result("{\"p99_ttft_ms\": 10.0}"), result("{\"p99_ttft_ms\": 20.0}")))),
                2);

        assertThat(summary.chartPoints())
                .containsExactly(new io.tokenpulse.charts.SweepChart.Point(
                        4.0, "random_input_len=80", Map.of("p99_ttft_ms", 15.0)));
        assertThat(new SweepSummary(
                                List.of("setting"),
                                List.of(new SweepSummary.Row(Map.of("setting", "chunked"), List.of())),
                                1)
                        .chartPoints())
                .as("a setting name is no x axis")
                .isEmpty();
    }
}
