package io.tokenpulse.producer;

import org.HdrHistogram.Histogram;

/**
 * How late the client itself sent its requests: sent minus the later of the request's due time and
 * the moment a {@code --max-concurrency} slot became free for it. Waiting for a slot is the
 * benchmark's design; lateness beyond it is the client's own (a busy scheduler thread, a starved
 * core), and a run with much of it measured the client rather than the server (issue 14). At an
 * infinite rate every request is due at once and they leave one after the other, so there a
 * request's lag counts from the later of that and the previous request's send: what stays is the
 * client's own stalls, not the length of the queue.
 *
 * <p>Threading: {@link #record} on the scheduler thread only; {@link #p99Ms} on that thread after
 * the dispatcher returned. Constant memory for runs of any length.
 */
final class ClientLag {

    /** 3 significant digits: 10.0 ms is told from 10.1 ms. */
    private final Histogram lagNs = new Histogram(3);

    private final boolean burst;
    private long previousSentNs = Long.MIN_VALUE;

    /** @param burst every request is due at once (an infinite rate) */
    ClientLag(boolean burst) {
        this.burst = burst;
    }

    /** @param permitNs when the request got its slot, or {@link Dispatcher#NO_LIMIT} */
    void record(long dueNs, long permitNs, long sentNs) {
        long from = Math.max(dueNs, permitNs);
        if (burst) {
            from = Math.max(from, previousSentNs);
        }
        previousSentNs = sentNs;
        lagNs.recordValue(Math.max(0, sentNs - from));
    }

    /** The 99th percentile in ms; NaN when nothing was sent. */
    double p99Ms() {
        return lagNs.getTotalCount() == 0 ? Double.NaN : lagNs.getValueAtPercentile(99) / 1e6;
    }
}
