package io.tokenpulse.simulator;

/**
 * Counters of a running simulator, for tests that check a client's behaviour from the server side.
 *
 * @param connectionsOpened         TCP connections accepted so far
 * @param requestsReceived          HTTP requests received on all connections
 * @param requestsCompleted         responses written to the end (resets and client disconnects excluded)
 * @param pipelinedRequests         requests that arrived on a connection while an earlier response on it
 *                                  was still being written: a client that does this suffers head-of-line
 *                                  blocking, so a correct client keeps this at 0
 * @param maxInFlightPerConnection  the most requests ever outstanding on one connection at once
 * @param profileStarts             POST /start_profile calls answered
 * @param profileStops              POST /stop_profile calls answered
 */
public record ServerStats(
        long connectionsOpened,
        long requestsReceived,
        long requestsCompleted,
        long pipelinedRequests,
        int maxInFlightPerConnection,
        long profileStarts,
        long profileStops) {}
