package io.tokenpulse.producer;

import io.tokenpulse.schemas.python.Numpy;
import java.util.Arrays;
import java.util.Locale;

/**
 * How late requests were sent against their own times (trace replay): sent minus due, per request,
 * for the console line after the run. The same values go to the schedule-lag meter
 * ({@code tokenpulse_client_schedule_lag_seconds}) while the run goes on.
 *
 * <p>Threading: {@link #record} on the scheduler thread only; {@link #line} on that thread after
 * the dispatcher returned.
 */
final class SendLateness {

    private final long[] latenessNs;
    private int count;

    /** @param capacity the requests this shard plans to send */
    SendLateness(int capacity) {
        this.latenessNs = new long[capacity];
    }

    void record(long dueNs, long sentNs) {
        latenessNs[count++] = Math.max(0, sentNs - dueNs);
    }

    /** "Trace send lateness (ms): median 0.05, P99 1.20, max 3.10 over 200 requests ..." */
    String line() {
        long[] sorted = Arrays.copyOf(latenessNs, count);
        Arrays.sort(sorted);
        return String.format(
                Locale.ROOT,
                "Trace send lateness (ms): median %.2f, P99 %.2f, max %.2f over %d requests (sent minus trace time;"
                        + " meter tokenpulse_client_schedule_lag_seconds)",
                percentileMs(sorted, 50),
                percentileMs(sorted, 99),
                count == 0 ? 0.0 : sorted[count - 1] / 1e6,
                count);
    }

    private static double percentileMs(long[] sorted, double percentile) {
        return Numpy.percentile(Arrays.stream(sorted).asDoubleStream().toArray(), percentile) / 1e6;
    }
}
