package io.tokenpulse.aggregator.definitions;

/**
 * One tool's metric definitions over a run's per-request timings: pure, no clock, no I/O. Each
 * implementation cites the tool's source file and commit it follows.
 */
public interface Definition {

    /** The name {@code rescore --as} takes, e.g. {@code vllm}. */
    String name();

    /** The run scored as this tool would score the same timings. */
    ToolScores score(TimedRun run);

    /** This tool's rule for a family of rows, in one clause (e.g. "(E2EL − TTFT)/(N − 1) per request"). */
    String rule(ScoreRow.Family family);

    /** This tool's percentile method, in one clause. */
    String percentileRule();
}
