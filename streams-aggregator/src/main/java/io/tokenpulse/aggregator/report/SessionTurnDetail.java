package io.tokenpulse.aggregator.report;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * One request of a multi-turn run in the {@code --save-detailed} file (extension): which turn of which
 * session it was and when it was sent and ended, so that a turn's send can be checked against the
 * previous turn's end plus the think time. One entry of {@code session_turns} per request, in the order
 * of vLLM's lists.
 *
 * @param sessionId the session's id, as sent in {@code --session-header}
 * @param turn the turn, 0 for the session's first
 * @param sentEpochS when the request was sent, seconds since the Unix epoch
 * @param finishedEpochS when it ended, seconds since the Unix epoch
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record SessionTurnDetail(String sessionId, int turn, double sentEpochS, double finishedEpochS) {}
