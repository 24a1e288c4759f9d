package io.tokenpulse.aggregator.report;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * One turn index of a multi-turn run (extension: vLLM's single-turn block has none): the requests that
 * were turn {@code turn} of their session, and their TTFT. In the result file one entry of
 * {@code ttft_by_turn}, in turn order. TTFT by turn shows what a growing history costs and what the
 * server's prefix cache saves of it.
 *
 * @param turn the turn, 0 for each session's first
 * @param completed its successful requests
 * @param failed its failed requests
 * @param meanInputTokens mean prompt length of its successful requests, the history included
 * @param meanTtftMs mean TTFT of its successful requests
 * @param medianTtftMs their median TTFT
 * @param p99TtftMs their P99 TTFT
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record TurnResult(
        int turn,
        long completed,
        long failed,
        double meanInputTokens,
        double meanTtftMs,
        double medianTtftMs,
        double p99TtftMs) {}
