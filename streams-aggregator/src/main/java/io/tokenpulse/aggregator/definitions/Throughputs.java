package io.tokenpulse.aggregator.definitions;

import java.util.Map;

/** The throughput, duration and count rows every definition fills the same way from its own numbers. */
final class Throughputs {

    private Throughputs() {}

    /**
     * @param durationNs   the tool's duration for throughput; at most 0 gives throughputs of 0
     * @param successful   requests the tool counts as completed (the request-throughput numerator)
     * @param failed       requests it counts as failed
     * @param inputTokens  its total input tokens
     * @param outputTokens its total output tokens (the output-throughput numerator)
     */
    static void put(
            Map<ScoreRow, Double> into,
            long durationNs,
            long successful,
            long failed,
            long inputTokens,
            long outputTokens) {
        put(into, durationNs, successful, successful, failed, inputTokens, outputTokens);
    }

    /** As above, with a request-throughput numerator other than the successful count (GuideLLM's total). */
    static void put(
            Map<ScoreRow, Double> into,
            long durationNs,
            double requestsCounted,
            long successful,
            long failed,
            long inputTokens,
            long outputTokens) {
        double seconds = Stats.seconds(durationNs);
        into.put(ScoreRow.OUTPUT_THROUGHPUT, seconds > 0 ? outputTokens / seconds : 0);
        into.put(ScoreRow.REQUEST_THROUGHPUT, seconds > 0 ? requestsCounted / seconds : 0);
        into.put(ScoreRow.DURATION, Math.max(0, seconds));
        into.put(ScoreRow.SUCCESSFUL, (double) successful);
        into.put(ScoreRow.FAILED, (double) failed);
        into.put(ScoreRow.INPUT_TOKENS, (double) inputTokens);
        into.put(ScoreRow.OUTPUT_TOKENS, (double) outputTokens);
    }
}
