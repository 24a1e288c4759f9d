package io.tokenpulse.cli.report;

import io.tokenpulse.aggregator.definitions.Comparison;
import io.tokenpulse.aggregator.definitions.ComparisonFormat;
import io.tokenpulse.aggregator.definitions.Definition;
import io.tokenpulse.aggregator.definitions.ScoreRow;
import io.tokenpulse.aggregator.definitions.TimedRun;
import io.tokenpulse.aggregator.definitions.ToolScores;
import io.tokenpulse.cli.report.CompareTable.Column;
import io.tokenpulse.cli.report.DefinitionNotes.Tool;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Which differences between another tool's result and a TokenPulse run of the same server the
 * definitions explain ({@code compare}, docs/rescore.md). For each figure of the other tool's row, the
 * TokenPulse run is scored by that tool's definition ({@code rescore}'s functions): when the other
 * tool's figure is within {@link #TOLERANCE} of it, its difference from TokenPulse's own figure is
 * explained by the rule that separates the two definitions; otherwise the two runs differ under the
 * same definition (another run, or the server in another state).
 */
public final class ExplainedDifferences {

    /** How far apart two figures may be and still count as the same: 5 %, relative to the TokenPulse run's. */
    public static final double TOLERANCE = 0.05;

    private static final Definition OURS = Tool.VLLM.definition();

    /**
     * The TokenPulse run the other rows are held against.
     *
     * @param timeline whether the run's send times are known (a stored run); a result file's lists
     *     have none, so its durations and throughputs are left out
     */
    public record Reference(String label, TimedRun run, boolean timeline) {}

    /** Another tool's row of the table. */
    public record Peer(CompareTable.Row row, Tool tool) {}

    /** The two answers. */
    public enum Verdict {
        /** The other tool's figure is the TokenPulse run's under its definition, within the tolerance. */
        EXPLAINED,
        /** It is not: the runs differ under the same definition. */
        NOT_EXPLAINED
    }

    /**
     * One figure of another tool's row that differs from the TokenPulse run's.
     *
     * @param theirs     the other tool's figure
     * @param ours       the TokenPulse run's, by TokenPulse's (vLLM's) definition
     * @param oursAsTheirs the TokenPulse run's by the other tool's definition
     * @param rule       the rules of the two definitions for this figure, in one sentence
     */
    public record Finding(
            String peer,
            Tool tool,
            Column column,
            ScoreRow row,
            double theirs,
            double ours,
            double oursAsTheirs,
            String rule,
            Verdict verdict) {

        /** The line under the table. */
        public String line() {
            String head =
                    "- " + peer + ", " + column.header + ": " + cell(theirs) + " against " + cell(ours) + " here; ";
            String underTheirs = cell(oursAsTheirs) + " here by " + tool.shown() + "'s definition";
            return verdict == Verdict.EXPLAINED
                    ? head + "explained by the definitions (" + underTheirs + ", " + percent(theirs, oursAsTheirs)
                            + " apart): " + rule
                    : head + "not explained by definitions (different run or server state: "
                            + percent(theirs, oursAsTheirs) + " apart under the same definition, " + underTheirs + ").";
        }

        private String cell(double value) {
            return ComparisonFormat.cell(row, OptionalDouble.of(value), "");
        }
    }

    private ExplainedDifferences() {}

    /**
     * Whether a difference is explained: none when the other tool's figure agrees with both TokenPulse's
     * own and TokenPulse's under its definition (nothing to explain); {@link Verdict#EXPLAINED} when
     * it agrees with the one under its definition; else {@link Verdict#NOT_EXPLAINED}.
     */
    static Optional<Verdict> classify(double theirs, double ours, double oursAsTheirs) {
        boolean sameUnderTheirs = apart(theirs, oursAsTheirs) <= TOLERANCE;
        if (sameUnderTheirs && apart(theirs, ours) <= TOLERANCE) {
            return Optional.empty();
        }
        return Optional.of(sameUnderTheirs ? Verdict.EXPLAINED : Verdict.NOT_EXPLAINED);
    }

    /** |a − b| relative to |b|: 0 when equal, infinite when b is 0 and a is not. */
    static double apart(double a, double b) {
        if (a == b) {
            return 0;
        }
        return b == 0 ? Double.POSITIVE_INFINITY : Math.abs(a - b) / Math.abs(b);
    }

    /** Every figure of the peers' rows that differs from the reference's, explained or not, in row and column order. */
    public static List<Finding> of(Reference reference, List<Peer> peers) {
        ToolScores ours = OURS.score(reference.run());
        Map<Tool, ToolScores> byTool = new EnumMap<>(Tool.class);
        List<Finding> findings = new ArrayList<>();
        for (Peer peer : peers) {
            ToolScores theirs = byTool.computeIfAbsent(
                    peer.tool(), tool -> tool.definition().score(reference.run()));
            for (Column column : Column.values()) {
                double value = peer.row().value(column);
                Optional<ScoreRow> ourRow = row(Tool.VLLM, column);
                Optional<ScoreRow> theirRow = row(peer.tool(), column);
                if (Double.isNaN(value) || ourRow.isEmpty() || theirRow.isEmpty()) {
                    continue;
                }
                if (!reference.timeline() && onTimeline(ourRow.get())) {
                    continue;
                }
                OptionalDouble own = ours.get(ourRow.get());
                OptionalDouble asTheirs = theirs.get(theirRow.get());
                if (own.isEmpty() || asTheirs.isEmpty()) {
                    continue;
                }
                double o = own.getAsDouble();
                double d = asTheirs.getAsDouble();
                classify(value, o, d)
                        .ifPresent(verdict -> findings.add(new Finding(
                                peer.row().label(),
                                peer.tool(),
                                column,
                                ourRow.get(),
                                value,
                                o,
                                d,
                                rule(peer.tool(), ourRow.get(), ours, theirRow.get(), theirs),
                                verdict)));
            }
        }
        return findings;
    }

    /** The lines under a markdown table: a heading and one line per finding, or a line saying all agree. */
    public static String markdown(Reference reference, List<Finding> findings) {
        StringBuilder out = new StringBuilder("\nWhich differences the definitions explain (against ")
                .append(reference.label())
                .append(", within ")
                .append(Math.round(TOLERANCE * 100))
                .append(" %; docs/rescore.md):\n");
        if (findings.isEmpty()) {
            out.append("- none to explain: every figure agrees with ")
                    .append(reference.label())
                    .append(" within ")
                    .append(Math.round(TOLERANCE * 100))
                    .append(" %.\n");
        }
        findings.forEach(f -> out.append(f.line()).append('\n'));
        return out.toString();
    }

    /**
     * The row of a tool's definitions that a table column holds for that tool's files: the column's own
     * metric, except AIPerf's TPOT column (its {@code inter_token_latency}, which its definition calls
     * ITL) and its ITL column (per-chunk, which no definition here computes).
     */
    static Optional<ScoreRow> row(Tool tool, Column column) {
        if (tool == Tool.AIPERF) {
            switch (column) {
                case MEAN_TPOT:
                    return Optional.of(ScoreRow.ITL_MEAN);
                case MEDIAN_TPOT:
                    return Optional.of(ScoreRow.ITL_MEDIAN);
                case P99_TPOT:
                    return Optional.of(ScoreRow.ITL_P99);
                case MEAN_ITL, MEDIAN_ITL, P99_ITL:
                    return Optional.empty();
                default:
                    break;
            }
        }
        return Optional.ofNullable(
                switch (column) {
                    case SUCCESSFUL -> ScoreRow.SUCCESSFUL;
                    case DURATION -> ScoreRow.DURATION;
                    case INPUT_TOKENS -> ScoreRow.INPUT_TOKENS;
                    case OUTPUT_TOKENS -> ScoreRow.OUTPUT_TOKENS;
                    case REQUEST_THROUGHPUT -> ScoreRow.REQUEST_THROUGHPUT;
                    case OUTPUT_THROUGHPUT -> ScoreRow.OUTPUT_THROUGHPUT;
                    case MEAN_TTFT -> ScoreRow.TTFT_MEAN;
                    case MEDIAN_TTFT -> ScoreRow.TTFT_MEDIAN;
                    case P99_TTFT -> ScoreRow.TTFT_P99;
                    case MEAN_TPOT -> ScoreRow.TPOT_MEAN;
                    case MEDIAN_TPOT -> ScoreRow.TPOT_MEDIAN;
                    case P99_TPOT -> ScoreRow.TPOT_P99;
                    case MEAN_ITL -> ScoreRow.ITL_MEAN;
                    case MEDIAN_ITL -> ScoreRow.ITL_MEDIAN;
                    case P99_ITL -> ScoreRow.ITL_P99;
                    case TOTAL_THROUGHPUT, MEAN_TTFO, MEDIAN_TTFO, P99_TTFO, RTFX -> null;
                });
    }

    private static boolean onTimeline(ScoreRow row) {
        return switch (row.family()) {
            case DURATION, OUTPUT_THROUGHPUT, REQUEST_THROUGHPUT -> true;
            default -> false;
        };
    }

    /** The two definitions' rules for the figure: {@code rescore}'s sentence, or both rules when the tool calls it by another name. */
    private static String rule(Tool tool, ScoreRow ourRow, ToolScores ours, ScoreRow theirRow, ToolScores theirs) {
        Definition definition = tool.definition();
        if (ourRow == theirRow) {
            return Comparison.why(ourRow, OURS, ours, definition, theirs);
        }
        return definition.name() + ": " + definition.rule(theirRow.family()) + " (shown as "
                + ourRow.family().name() + "); " + OURS.name() + ": " + OURS.rule(ourRow.family()) + ".";
    }

    private static String percent(double a, double b) {
        double apart = apart(a, b);
        return Double.isInfinite(apart) ? "the other is 0" : String.format(Locale.ROOT, "%.1f %%", apart * 100);
    }
}
