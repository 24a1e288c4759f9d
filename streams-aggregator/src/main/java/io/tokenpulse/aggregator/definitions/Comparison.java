package io.tokenpulse.aggregator.definitions;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * One run scored by several tools' definitions side by side, and every row where they differ by
 * more than {@link #THRESHOLD}, with the rule behind it.
 *
 * @param runId      the run
 * @param incomplete what the run lacked when it was scored anyway ({@code --allow-incomplete}); empty when complete
 * @param scores     one column per tool, in the order asked for
 * @param differences the rows whose smallest and largest reported values differ by more than 1 %
 */
public record Comparison(
        String runId, Optional<String> incomplete, List<ToolScores> scores, List<Difference> differences) {

    /** Relative spread above which a row is explained: 1 %. */
    public static final double THRESHOLD = 0.01;

    public Comparison {
        scores = List.copyOf(scores);
        differences = List.copyOf(differences);
    }

    /**
     * A row where the tools differ: the lowest and the highest tool, and why, in one sentence.
     *
     * @param relative (high − low)/|low|; infinite when low is 0
     */
    public record Difference(
            ScoreRow row, String lowTool, double low, String highTool, double high, double relative, String why) {}

    /** Scores the run by each definition and finds the rows where they differ. */
    public static Comparison of(String runId, Optional<String> incomplete, TimedRun run, List<Definition> definitions) {
        List<ToolScores> scores = definitions.stream().map(d -> d.score(run)).toList();
        List<Difference> differences = new ArrayList<>();
        for (ScoreRow row : ScoreRow.values()) {
            int low = -1;
            int high = -1;
            for (int i = 0; i < scores.size(); i++) {
                OptionalDouble v = scores.get(i).get(row);
                if (v.isEmpty()) {
                    continue;
                }
                if (low < 0 || v.getAsDouble() < scores.get(low).get(row).getAsDouble()) {
                    low = i;
                }
                if (high < 0 || v.getAsDouble() > scores.get(high).get(row).getAsDouble()) {
                    high = i;
                }
            }
            if (low < 0 || low == high) {
                continue;
            }
            double lowValue = scores.get(low).get(row).getAsDouble();
            double highValue = scores.get(high).get(row).getAsDouble();
            double relative = lowValue == 0 ? Double.POSITIVE_INFINITY : (highValue - lowValue) / Math.abs(lowValue);
            if (relative > THRESHOLD) {
                differences.add(new Difference(
                        row,
                        definitions.get(low).name(),
                        lowValue,
                        definitions.get(high).name(),
                        highValue,
                        relative,
                        why(row, definitions.get(low), scores.get(low), definitions.get(high), scores.get(high))));
            }
        }
        return new Comparison(runId, incomplete, scores, differences);
    }

    /**
     * The rule that separates two tools on a row, in one sentence: their percentile methods when
     * only those differ (the same rule per family, or a TTFT or E2EL median or P99 whose means
     * agree within 1 %, so the per-request values are the same), else their rules for the row's family.
     */
    public static String why(
            ScoreRow row, Definition low, ToolScores lowScores, Definition high, ToolScores highScores) {
        String lowRule = low.rule(row.family());
        String highRule = high.rule(row.family());
        boolean rankRow = row.stat() == ScoreRow.Stat.MEDIAN || row.stat() == ScoreRow.Stat.P99;
        boolean perRequestValues = row.family() == ScoreRow.Family.TTFT || row.family() == ScoreRow.Family.E2EL;
        boolean methodsDiffer = !low.percentileRule().equals(high.percentileRule());
        if (rankRow
                && methodsDiffer
                && (lowRule.equals(highRule)
                        || (perRequestValues
                                && meansAgree(ScoreRow.distribution(row.family())[0], lowScores, highScores)))) {
            lowRule = low.percentileRule();
            highRule = high.percentileRule();
        }
        return high.name() + ": " + highRule + "; " + low.name() + ": " + lowRule + ".";
    }

    private static boolean meansAgree(ScoreRow mean, ToolScores a, ToolScores b) {
        OptionalDouble x = a.get(mean);
        OptionalDouble y = b.get(mean);
        if (x.isEmpty() || y.isEmpty()) {
            return false;
        }
        double low = Math.min(x.getAsDouble(), y.getAsDouble());
        double high = Math.max(x.getAsDouble(), y.getAsDouble());
        return low == high || (low != 0 && (high - low) / Math.abs(low) <= THRESHOLD);
    }
}
