package io.tokenpulse.cli.report;

import io.tokenpulse.aggregator.definitions.Comparison;
import io.tokenpulse.aggregator.definitions.ComparisonFormat;
import io.tokenpulse.aggregator.definitions.Definitions;
import io.tokenpulse.aggregator.definitions.ScoreRow;
import io.tokenpulse.aggregator.definitions.StoredTimings;
import io.tokenpulse.aggregator.definitions.ToolScores;
import io.tokenpulse.aggregator.report.SummaryRecords;
import java.util.Optional;

/**
 * The report's section "Every tool's numbers": a stored run scored by vLLM's, GuideLLM's, AIPerf's,
 * SGLang's and inference-perf's definitions side by side, and why they differ: {@code tokenpulse
 * rescore}'s table ({@link Comparison}, {@link ComparisonFormat}) as HTML.
 */
final class DefinitionsSection {
    private DefinitionsSection() {}

    /**
     * The run scored by every tool's definitions, from its request metrics; empty without requests
     * (a run that sent none has nothing to score). An incomplete run is scored and marked.
     */
    static Optional<Comparison> of(String runId, ScoredRun run) {
        if (run.requests().isEmpty()) {
            return Optional.empty();
        }
        Optional<String> incomplete =
                Optional.ofNullable(SummaryRecords.completeness(run.summary()).incomplete());
        return Optional.of(Comparison.of(
                runId,
                incomplete,
                StoredTimings.ofDuration(run.summary().getDurationNs(), run.requests()),
                Definitions.parse(Definitions.known())));
    }

    static String html(Comparison comparison) {
        StringBuilder out = new StringBuilder("<h2>Every tool's numbers</h2>\n")
                .append("<p>The same requests' timings scored by each tool's definitions, as")
                .append(" <code>tokenpulse rescore --run-id ")
                .append(Html.escape(comparison.runId()))
                .append("</code> prints them (docs/rescore.md); — where a tool does not report the metric.</p>\n");
        comparison
                .incomplete()
                .ifPresent(missing -> out.append("<p class=\"missing\">Incomplete run: missing ")
                        .append(Html.escape(missing))
                        .append(".</p>\n"));
        out.append("<table class=\"definitions\">\n<thead><tr><th>metric</th>");
        comparison
                .scores()
                .forEach(s -> out.append("<th>").append(Html.escape(s.tool())).append("</th>"));
        out.append("</tr></thead>\n<tbody>\n");
        for (ScoreRow row : ScoreRow.values()) {
            out.append("<tr><td>").append(Html.escape(row.label())).append("</td>");
            for (ToolScores scores : comparison.scores()) {
                out.append("<td>")
                        .append(ComparisonFormat.cell(row, scores.get(row), "—"))
                        .append("</td>");
            }
            out.append("</tr>\n");
        }
        out.append("</tbody>\n</table>\n<h3>Why they differ (by more than 1 %)</h3>\n");
        if (comparison.differences().isEmpty()) {
            return out.append("<p>Nowhere: every row agrees within 1 %.</p>\n").toString();
        }
        out.append("<ul class=\"why\">\n");
        for (Comparison.Difference d : comparison.differences()) {
            out.append("<li><b>")
                    .append(Html.escape(d.row().label()))
                    .append("</b>: ")
                    .append(Html.escape(ComparisonFormat.sentence(d)))
                    .append("</li>\n");
        }
        return out.append("</ul>\n").toString();
    }
}
