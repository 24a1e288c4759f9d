package io.tokenpulse.producer;

import io.tokenpulse.producer.http.StreamingHttpClient;
import io.tokenpulse.producer.schedule.ArrivalSettings;
import java.net.URI;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens the connections the run's first requests will use before its clock starts (issue 14): 400
 * connects at once inside the timed run made the first round's TTFT error 114 ms. Connects still
 * happen in the run when more are needed, timed apart from TTFT as before. The pool closes a
 * connection idle for longer than its idle timeout (4 s, under uvicorn's 5 s keep-alive), so a
 * connection opened here that the run does not use soon is never reused stale.
 */
final class WarmPool {

    private static final Logger LOG = LoggerFactory.getLogger(WarmPool.class);

    /** No more than this many are opened ahead: a burst of connects must not become the benchmark. */
    static final int MAX_CONNECTIONS = 1024;

    /** The concurrency a rate reaches is rate × latency (Little's law); the test request ran unloaded. */
    private static final double LATENCY_MARGIN = 2;

    private WarmPool() {}

    /**
     * How many connections the run will use at once: {@code --max-concurrency} when given, else all
     * planned requests at an infinite rate, else the rate (its peak, with ramp-up) times twice the
     * test request's latency; never more than the planned requests or {@link #MAX_CONNECTIONS}.
     */
    static int size(ArrivalSettings arrivals, Integer maxConcurrency, int plannedRequests, long testLatencyNs) {
        double rate = arrivals.rampUp() == null
                ? arrivals.requestRate()
                : Math.max(arrivals.rampUp().startRps(), arrivals.rampUp().endRps());
        long expected = maxConcurrency != null
                ? maxConcurrency
                : Double.isInfinite(rate)
                        ? plannedRequests
                        : (long) Math.ceil(rate * LATENCY_MARGIN * testLatencyNs / 1e9);
        return bounded(expected, plannedRequests);
    }

    /**
     * As {@link #size}, for requests sent at their own times (trace replay, where {@code --request-rate}
     * does not apply and stays at its default, infinite): {@code --max-concurrency} when given, else the
     * most requests due within twice the test request's latency, the trace's own bursts included. Sized
     * as an infinite rate, a 200 req/s trace that keeps about 10 requests in flight opened 1 024
     * connections, each accepted by the server before the run and left to expire.
     *
     * @param offsetsNs when the requests are due, in order
     */
    static int sizeForTimes(long[] offsetsNs, Integer maxConcurrency, long testLatencyNs) {
        long expected = maxConcurrency != null
                ? maxConcurrency
                : mostDueWithin(offsetsNs, (long) (LATENCY_MARGIN * testLatencyNs));
        return bounded(expected, offsetsNs.length);
    }

    /** The most offsets (in order) at most {@code windowNs} after the first of them: ties always count together. */
    private static int mostDueWithin(long[] offsetsNs, long windowNs) {
        int most = 0;
        for (int first = 0, last = 0; last < offsetsNs.length; last++) {
            while (offsetsNs[last] - offsetsNs[first] > windowNs && first < last) {
                first++;
            }
            most = Math.max(most, last - first + 1);
        }
        return most;
    }

    private static int bounded(long expected, int plannedRequests) {
        return (int) Math.max(1, Math.min(Math.min(expected, plannedRequests), MAX_CONNECTIONS));
    }

    /** Opens {@code size} idle connections to {@code target}'s host and waits for them; returns how many opened. */
    static int open(StreamingHttpClient client, URI target, int size) throws InterruptedException {
        try {
            var warm = client.warmUp(target, size).get();
            if (warm.failed() > 0) {
                LOG.info(
                        "opened {} of {} connections before the run ({}); the rest connect during the run",
                        warm.opened(),
                        size,
                        warm.firstError());
            }
            return warm.opened();
        } catch (ExecutionException e) {
            LOG.info(
                    "could not open connections before the run: {}",
                    e.getCause().toString());
            return 0;
        }
    }
}
