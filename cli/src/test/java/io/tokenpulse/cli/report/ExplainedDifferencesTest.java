package io.tokenpulse.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.tokenpulse.aggregator.definitions.ScoreRow;
import io.tokenpulse.aggregator.definitions.TimedRequest;
import io.tokenpulse.aggregator.definitions.TimedRun;
import io.tokenpulse.aggregator.definitions.ToolScores;
import io.tokenpulse.cli.report.CompareTable.Column;
import io.tokenpulse.cli.report.DefinitionNotes.Tool;
import io.tokenpulse.cli.report.ExplainedDifferences.Finding;
import io.tokenpulse.cli.report.ExplainedDifferences.Peer;
import io.tokenpulse.cli.report.ExplainedDifferences.Reference;
import io.tokenpulse.cli.report.ExplainedDifferences.Verdict;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * The classifier of {@code compare}'s "which differences the definitions explain": a peer figure
 * equal to the TokenPulse run under the peer's definition is explained by the rule, one that is not is
 * another run.
 */
class ExplainedDifferencesTest {
    private static final long MS = 1_000_000L;

    /**
     * Eight requests, each sent 100 ms after the one before, first token after 500 ms, then 9 more
     * every 10 ms (N = 10): vLLM's TPOT is 10 ms, GuideLLM's (590 ms)/10 = 59 ms.
     */
    private static final TimedRun RUN = new TimedRun(
            0,
            (700 + 590) * MS,
            LongStream.range(0, 8)
                    .mapToObj(i -> TimedRequest.of(
                            i * 100 * MS,
                            LongStream.range(0, 10)
                                    .map(c -> (i * 100 + 500 + c * 10) * MS)
                                    .toArray(),
                            (i * 100 + 590) * MS,
                            10,
                            100,
                            true))
                    .toList());

    private static final Reference REFERENCE = new Reference("run r", RUN, true);

    @Test
    void aPeerFigureIsExplainedWhenItIsOursUnderItsDefinition() {
        assertThat(ExplainedDifferences.classify(59.0, 10.0, 59.0)).contains(Verdict.EXPLAINED);
        assertThat(ExplainedDifferences.classify(61.0, 10.0, 59.0))
                .as("within 5 %")
                .contains(Verdict.EXPLAINED);
        assertThat(ExplainedDifferences.classify(75.0, 10.0, 59.0)).contains(Verdict.NOT_EXPLAINED);
        assertThat(ExplainedDifferences.classify(10.0, 10.0, 59.0))
                .as("equal to ours, but its definition gives another figure")
                .contains(Verdict.NOT_EXPLAINED);
        assertThat(ExplainedDifferences.classify(10.2, 10.0, 10.1))
                .as("nothing to explain")
                .isEmpty();
        assertThat(ExplainedDifferences.classify(0, 0, 0)).isEmpty();
        assertThat(ExplainedDifferences.classify(1, 0, 0)).contains(Verdict.NOT_EXPLAINED);
    }

    @Test
    void guideLlmsTpotIsExplainedByItsRuleAndAPerturbedTtftIsNot() {
        CompareTable.Row guidellm = row("benchmarks", Tool.GUIDELLM, 1.0);
        CompareTable.Row perturbed = row("perturbed", Tool.GUIDELLM, 1.3);

        List<Finding> findings = ExplainedDifferences.of(
                REFERENCE, List.of(new Peer(guidellm, Tool.GUIDELLM), new Peer(perturbed, Tool.GUIDELLM)));

        Finding tpot = find(findings, "benchmarks", Column.MEAN_TPOT);
        assertThat(tpot.verdict()).isEqualTo(Verdict.EXPLAINED);
        assertThat(tpot.ours()).isEqualTo(10.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(tpot.theirs()).isEqualTo(59.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(tpot.line())
                .isEqualTo("- benchmarks, Mean TPOT (ms): 59.00 against 10.00 here; explained by the definitions"
                        + " (59.00 here by GuideLLM's definition, 0.0 % apart): guidellm: "
                        + Tool.GUIDELLM.definition().rule(ScoreRow.Family.TPOT) + "; vllm: "
                        + Tool.VLLM.definition().rule(ScoreRow.Family.TPOT) + ".");
        assertThat(findings)
                .filteredOn(f -> f.peer().equals("benchmarks"))
                .allSatisfy(f -> assertThat(f.verdict()).isEqualTo(Verdict.EXPLAINED));

        Finding ttft = find(findings, "perturbed", Column.MEAN_TTFT);
        assertThat(ttft.verdict()).isEqualTo(Verdict.NOT_EXPLAINED);
        assertThat(ttft.line())
                .isEqualTo("- perturbed, Mean TTFT (ms): 650.00 against 500.00 here; not explained by definitions"
                        + " (different run or server state: 30.0 % apart under the same definition,"
                        + " 500.00 here by GuideLLM's definition).");
    }

    @Test
    void aiPerfsInterTokenLatencyIsHeldAgainstItsDefinitionOfItl() {
        // AIPerf's inter_token_latency is vLLM's TPOT: shown in the TPOT column, it agrees with ours
        CompareTable.Row aiperf = row("aiperf", Tool.AIPERF, 1.0);

        assertThat(aiperf.value(Column.MEAN_TPOT)).isEqualTo(10.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(ExplainedDifferences.of(REFERENCE, List.of(new Peer(aiperf, Tool.AIPERF))))
                .isEmpty();
    }

    @Test
    void withoutSendTimesTheRunsTimelineIsLeftOut() {
        CompareTable.Row slower = row("slower", Tool.VLLM, 1.0);
        double[] values = new double[Column.values().length];
        for (Column column : Column.values()) {
            values[column.ordinal()] = slower.value(column);
        }
        values[Column.OUTPUT_THROUGHPUT.ordinal()] /= 2;
        CompareTable.Row halfThroughput = new CompareTable.Row("slower", values);

        assertThat(ExplainedDifferences.of(REFERENCE, List.of(new Peer(halfThroughput, Tool.VLLM))))
                .singleElement()
                .satisfies(f -> {
                    assertThat(f.column()).isEqualTo(Column.OUTPUT_THROUGHPUT);
                    assertThat(f.verdict()).isEqualTo(Verdict.NOT_EXPLAINED);
                });
        assertThat(ExplainedDifferences.of(
                        new Reference("file", RUN, false), List.of(new Peer(halfThroughput, Tool.VLLM))))
                .isEmpty();
        assertThat(ExplainedDifferences.markdown(new Reference("file", RUN, false), List.of()))
                .isEqualTo("\nWhich differences the definitions explain (against file, within 5 %; docs/rescore.md):\n"
                        + "- none to explain: every figure agrees with file within 5 %.\n");
    }

    /**
     * The row a tool's file would have for {@link #RUN}: each column its definition's figure (the
     * latencies times {@code latencyFactor}), as the tool would report the same requests.
     */
    private static CompareTable.Row row(String label, Tool tool, double latencyFactor) {
        ToolScores scores = tool.definition().score(RUN);
        double[] values = new double[Column.values().length];
        Arrays.fill(values, Double.NaN);
        for (Column column : Column.values()) {
            Optional<ScoreRow> row = ExplainedDifferences.row(tool, column);
            if (row.isPresent() && scores.get(row.get()).isPresent()) {
                double value = scores.get(row.get()).getAsDouble();
                boolean latency =
                        column.name().contains("TTFT") || column.name().contains("TPOT");
                values[column.ordinal()] = latency ? value * latencyFactor : value;
            }
        }
        return new CompareTable.Row(label, values);
    }

    private static Finding find(List<Finding> findings, String peer, Column column) {
        return findings.stream()
                .filter(f -> f.peer().equals(peer) && f.column() == column)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no finding for " + peer + " " + column + " in " + findings));
    }
}
