package io.tokenpulse.simulator;

/**
 * Optional log of each streamed event's send time: the ground truth a client's arrival timestamps
 * are compared with. Both clocks are System.nanoTime(), so the comparison only holds in one process
 * (or across processes on one Linux host, where nanoTime is CLOCK_MONOTONIC).
 *
 * <p>Threading: called on the connection's event loop right after the bytes were written to the
 * socket; must be quick and must not block.
 */
@FunctionalInterface
public interface SendListener {

    SendListener NONE = (requestId, seq, receivedNs, dueNs, sentNs) -> {};

    /**
     * @param seq        position of the SSE event in the response, 0 for the first (chat's role event,
     *                   the usage event and {@code [DONE]} count too)
     * @param receivedNs when the server had read the whole request (where its TTFT starts), the same
     *                   for every event of the request
     * @param dueNs      when the latency model wanted it sent; {@code sentNs - dueNs} is the timer's lateness
     * @param sentNs     System.nanoTime() immediately before the bytes were written to the socket
     */
    void onSent(String requestId, int seq, long receivedNs, long dueNs, long sentNs);
}
