package io.tokenpulse.producer;

import io.tokenpulse.producer.dataset.SampledRequest;

/**
 * One request this shard will send.
 *
 * @param index the request index: the dataset index (the sequence number in duration mode); for a
 *     session, its first turn's index (turn {@code t} is {@code index + t})
 * @param offsetNs when it is due, ns after the schedule start
 * @param sample what it sends
 * @param turn the session turn this request is, or null for a single request
 */
record PlannedRequest(int index, long offsetNs, SampledRequest sample, SessionTurn turn) {

    /** A single request, or a session's opening before its turns are planned. */
    PlannedRequest(int index, long offsetNs, SampledRequest sample) {
        this(index, offsetNs, sample, null);
    }

    /**
     * Which turn of which session a request is, for its records.
     *
     * @param sessionId the session's id ({@code SessionOptions.sessionId})
     * @param turnIndex 0 for the first turn
     */
    record SessionTurn(String sessionId, int turnIndex) {}
}
