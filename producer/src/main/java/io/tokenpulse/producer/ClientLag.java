package io.tokenpulse.producer;

import org.HdrHistogram.Histogram;

/**
 * How late the client itself sent its requests: sent minus the later of the request's due time and
 * the moment a {@code --max-concurrency} slot became free for it. Waiting for a slot is the
 * benchmark's design; lateness beyond it is the client's own (a busy scheduler thread, a starved
 * core), and a run with much of it measured the client rather than the server (issue 14).
 *
 * <p>Threading: {@link #record} on the scheduler thread only; {@link #p99Ms} on that thread after
 * the dispatcher returned. Constant memory for runs of any length.
 */
final class ClientLag {

    /** 3 significant digits: 10.0 ms is told from 10.1 ms. */
    private final Histogram lagNs = new Histogram(3);

    /** @param permitNs when the request got its slot, or {@link Dispatcher#NO_LIMIT} */
    void record(long dueNs, long permitNs, long sentNs) {
        lagNs.recordValue(Math.max(0, sentNs - Math.max(dueNs, permitNs)));
    }

    /** The 99th percentile in ms; NaN when nothing was sent. */
    double p99Ms() {
        return lagNs.getTotalCount() == 0 ? Double.NaN : lagNs.getValueAtPercentile(99) / 1e6;
    }
}
