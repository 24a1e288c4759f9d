package io.tokenpulse.aggregator.metrics;

import java.util.Arrays;

/**
 * The raw timing of one request, as the load generator recorded it: every time is a {@code long}
 * nanosecond reading of one monotonic clock (docs/metrics.md, timing points of one request).
 *
 * @param success      whether the request counts as successful (docs/metrics.md, what counts as failed)
 * @param scheduledNs  the request's slot in the precomputed arrival schedule
 * @param sentNs       immediately before the HTTP request was written
 * @param eventNs      arrival of every data event that carried {@code choices} (or a token event), in
 *                     stream order; empty when none arrived
 * @param lastNs       the last data event before the stream ended (for chat a trailing usage-only event
 *                     counts); {@code sentNs} when no data event arrived, as vLLM then reports E2EL 0
 * @param finishedNs   when the request ended (last event, error or close): bounds the run's duration
 * @param promptTokens input tokens of the request
 * @param outputTokens output tokens {@code n}: usage.completion_tokens when reported and > 0, else the
 *                     tokenizer's count; 0 for a failure
 * @param permitNs     when the request got its {@code --max-concurrency} slot ({@code sentNs} without a
 *                     limit); {@code scheduledNs <= permitNs <= sentNs}
 */
public record RequestTiming(
        boolean success,
        long scheduledNs,
        long sentNs,
        long[] eventNs,
        long lastNs,
        long finishedNs,
        int promptTokens,
        int outputTokens,
        long permitNs) {

    public RequestTiming {
        if (sentNs < scheduledNs) {
            throw new IllegalArgumentException("sentNs " + sentNs + " is before scheduledNs " + scheduledNs
                    + ": a request is never sent before its slot");
        }
        if (permitNs < scheduledNs || permitNs > sentNs) {
            throw new IllegalArgumentException("permitNs " + permitNs + " is outside [scheduledNs " + scheduledNs
                    + ", sentNs " + sentNs + "]: a request takes its slot after its time and before its send");
        }
        eventNs = eventNs.clone();
        long previous = sentNs;
        for (long event : eventNs) {
            if (event < previous) {
                throw new IllegalArgumentException(
                        "eventNs must be in stream order and not before sentNs, got " + event + " after " + previous);
            }
            previous = event;
        }
        if (lastNs < previous) {
            throw new IllegalArgumentException("lastNs " + lastNs + " is before the last event or send " + previous);
        }
        if (finishedNs < lastNs) {
            throw new IllegalArgumentException("finishedNs " + finishedNs + " is before lastNs " + lastNs);
        }
        if (promptTokens < 0 || outputTokens < 0) {
            throw new IllegalArgumentException(
                    "token counts must be >= 0, got prompt " + promptTokens + " and output " + outputTokens);
        }
    }

    /** A copy: the record keeps its own array. */
    @Override
    public long[] eventNs() {
        return eventNs.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RequestTiming t
                && success == t.success
                && scheduledNs == t.scheduledNs
                && sentNs == t.sentNs
                && Arrays.equals(eventNs, t.eventNs)
                && lastNs == t.lastNs
                && finishedNs == t.finishedNs
                && promptTokens == t.promptTokens
                && outputTokens == t.outputTokens
                && permitNs == t.permitNs;
    }

    @Override
    public int hashCode() {
        return 31 * Long.hashCode(sentNs) + Arrays.hashCode(eventNs);
    }

    @Override
    public String toString() {
        return "RequestTiming[success=" + success + ", sentNs=" + sentNs + ", events=" + eventNs.length + ", lastNs="
                + lastNs + ", n=" + outputTokens + "]";
    }
}
