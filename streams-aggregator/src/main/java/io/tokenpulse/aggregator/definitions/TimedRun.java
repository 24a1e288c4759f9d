package io.tokenpulse.aggregator.definitions;

import java.util.List;

/**
 * A run's requests with its bounds, on one clock (ns): what each tool's definition scores.
 *
 * @param startNs  the run's start: the schedule start, before the first request was dispatched
 *     (vLLM's and SGLang's {@code benchmark_start_time})
 * @param endNs    the run's end: the last request's end (vLLM's and SGLang's duration ends after
 *     {@code asyncio.gather} of every request)
 * @param requests every request sent, successful or not, in request order
 */
public record TimedRun(long startNs, long endNs, List<TimedRequest> requests) {

    public TimedRun {
        if (endNs < startNs) {
            throw new IllegalArgumentException("run ends at " + endNs + " ns before it starts at " + startNs);
        }
        requests = List.copyOf(requests);
    }

    /** The successful requests, in order. */
    List<TimedRequest> successful() {
        return requests.stream().filter(TimedRequest::success).toList();
    }
}
