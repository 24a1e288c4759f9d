package io.tokenpulse.aggregator.metrics;

import io.soabase.recordbuilder.core.RecordBuilder;
import java.util.Arrays;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The per-request values of docs/metrics.md in nanoseconds: computed once from a
 * request's raw timing by {@link #of}, then carried as they are (the aggregator's
 * {@code records.RequestMetricsMapper} writes them to and reads them from a {@code RequestMetrics}
 * record without computing anything again). Failed requests carry their values too (vLLM's detailed
 * lists show a failure's partial TTFT and ITLs) but add nothing to the run's statistics.
 *
 * @param success        whether the request succeeded
 * @param sentNs         send time: the origin of TTFT, E2EL and the event times
 * @param finishedNs     end of the request (last event, error or close), kept for the run's duration
 * @param queueDelayNs   extension: {@code sent - scheduled}
 * @param firstArrived   whether a first streamed event arrived; without one TTFT is 0 and there are no
 *                       ITL samples, and the request's record leaves TTFT and E2EL out
 * @param ttftNs         {@code first - sent}; 0 when no event arrived, as vLLM reports it
 * @param e2elNs         {@code last - sent}
 * @param tpotNs         {@code (E2EL - TTFT) / (n - 1)}, present only when {@code n > 1} (always for a
 *                       successful request with {@code n > 1})
 * @param tokenLatencyNs {@code E2EL / n}, present only when {@code n > 0} (always for a successful one)
 * @param itlNs          one sample per streamed event after the first, in stream order
 * @param promptTokens   input tokens
 * @param outputTokens   output tokens {@code n}
 * @param clientQueueNs  vLLM's client queue time, {@code permit - scheduled}: the wait for a
 *                       {@code --max-concurrency} slot; empty in records from writers before it
 * @param cachedTokens   prompt tokens the server said it served from its prefix cache
 *                       ({@code usage.prompt_tokens_details.cached_tokens}); empty when it did not say
 *                       ({@code withCachedTokens} adds it to values computed by {@link #of})
 * @param inputAudioSeconds seconds of audio the request sent (vLLM's {@code input_audio_duration}, RTFx's
 *                       numerator); 0 without audio ({@code withInputAudioSeconds} adds it to {@link #of}'s)
 */
@RecordBuilder
public record RequestValues(
        boolean success,
        long sentNs,
        long finishedNs,
        long queueDelayNs,
        boolean firstArrived,
        long ttftNs,
        long e2elNs,
        OptionalDouble tpotNs,
        OptionalDouble tokenLatencyNs,
        long[] itlNs,
        int promptTokens,
        int outputTokens,
        OptionalLong clientQueueNs,
        OptionalInt cachedTokens,
        double inputAudioSeconds)
        implements RequestValuesBuilder.With {

    public RequestValues {
        if (!(inputAudioSeconds >= 0) || Double.isInfinite(inputAudioSeconds)) {
            throw new IllegalArgumentException("inputAudioSeconds must be finite and >= 0, got " + inputAudioSeconds);
        }
        if (cachedTokens.isPresent() && cachedTokens.getAsInt() < 0) {
            throw new IllegalArgumentException("cachedTokens must be >= 0, got " + cachedTokens.getAsInt());
        }
        if (clientQueueNs.isPresent() && clientQueueNs.getAsLong() < 0) {
            throw new IllegalArgumentException("clientQueueNs must be >= 0, got " + clientQueueNs.getAsLong());
        }
        if (queueDelayNs < 0 || ttftNs < 0 || e2elNs < ttftNs) {
            throw new IllegalArgumentException("need 0 <= queueDelayNs, 0 <= ttftNs <= e2elNs; got queue delay "
                    + queueDelayNs + ", TTFT " + ttftNs + ", E2EL " + e2elNs);
        }
        if (finishedNs < sentNs + e2elNs) {
            throw new IllegalArgumentException(
                    "need sentNs + e2elNs <= finishedNs, got " + sentNs + " + " + e2elNs + " > " + finishedNs);
        }
        if (promptTokens < 0 || outputTokens < 0) {
            throw new IllegalArgumentException(
                    "token counts must be >= 0, got prompt " + promptTokens + " and output " + outputTokens);
        }
        if ((tpotNs.isPresent() && outputTokens <= 1)
                || (tokenLatencyNs.isPresent() && outputTokens <= 0)
                || (success
                        && (tpotNs.isPresent() != (outputTokens > 1)
                                || tokenLatencyNs.isPresent() != (outputTokens > 0)))) {
            throw new IllegalArgumentException(
                    "TPOT exists only for n > 1 and token latency only for n > 0, n = " + outputTokens);
        }
        if (!firstArrived && (ttftNs != 0 || itlNs.length > 0)) {
            throw new IllegalArgumentException("without a first event TTFT is 0 and there are no ITL samples, got "
                    + ttftNs + " and " + itlNs.length + " samples");
        }
        itlNs = itlNs.clone();
        for (long itl : itlNs) {
            if (itl < 0) {
                throw new IllegalArgumentException("ITL samples must be >= 0, got " + itl);
            }
        }
    }

    /**
     * Computes a request's values from its raw timing: the one place the differences are taken.
     *
     * @see "docs/metrics.md, Per-request values: rows TTFT, ITL samples, E2EL, TPOT, token latency; queue delay"
     */
    public static RequestValues of(RequestTiming t) {
        long[] events = t.eventNs();
        long ttftNs = events.length == 0 ? 0 : events[0] - t.sentNs();
        long e2elNs = t.lastNs() - t.sentNs();
        long[] itlNs = new long[Math.max(0, events.length - 1)];
        for (int i = 1; i < events.length; i++) {
            itlNs[i - 1] = events[i] - events[i - 1];
        }
        int n = t.outputTokens();
        OptionalDouble tpotNs =
                n > 1 ? OptionalDouble.of((double) (e2elNs - ttftNs) / (n - 1)) : OptionalDouble.empty();
        OptionalDouble tokenLatencyNs = n > 0 ? OptionalDouble.of((double) e2elNs / n) : OptionalDouble.empty();
        return new RequestValues(
                t.success(),
                t.sentNs(),
                t.finishedNs(),
                t.sentNs() - t.scheduledNs(),
                events.length > 0,
                ttftNs,
                e2elNs,
                tpotNs,
                tokenLatencyNs,
                itlNs,
                t.promptTokens(),
                n,
                OptionalLong.of(t.permitNs() - t.scheduledNs()),
                OptionalInt.empty(),
                0);
    }

    /**
     * vLLM's E2EL including client queue: {@code client queue time + E2EL}, the latency from the
     * request's scheduled time; empty without a client queue time.
     *
     * @see "docs/metrics.md, Per-request values: row E2EL including client queue"
     */
    public OptionalLong e2elIncludingClientQueueNs() {
        return clientQueueNs.isPresent() ? OptionalLong.of(clientQueueNs.getAsLong() + e2elNs) : OptionalLong.empty();
    }

    /** The last data event: {@code sent + E2EL}, for the concurrency buckets. */
    public long lastNs() {
        return sentNs + e2elNs;
    }

    /**
     * The arrival of every streamed event, {@code sent + TTFT} and then each ITL sample added, as vLLM
     * rebuilds them for its peak buckets; empty when no event arrived.
     */
    public long[] eventNs() {
        if (!firstArrived) {
            return new long[0];
        }
        long[] events = new long[itlNs.length + 1];
        events[0] = sentNs + ttftNs;
        for (int i = 0; i < itlNs.length; i++) {
            events[i + 1] = events[i] + itlNs[i];
        }
        return events;
    }

    /**
     * TPOT as goodput sees it: a request with {@code n <= 1} counts as 0.
     *
     * @see "docs/metrics.md, Run values: row request goodput"
     */
    public double tpotForGoodputNs() {
        return tpotNs.orElse(0);
    }

    /** A copy: the record keeps its own array. */
    @Override
    public long[] itlNs() {
        return itlNs.clone();
    }

    /** A package-private view without a copy, for the accumulator's hot path. */
    long[] itlNsView() {
        return itlNs;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RequestValues v
                && success == v.success
                && sentNs == v.sentNs
                && finishedNs == v.finishedNs
                && queueDelayNs == v.queueDelayNs
                && firstArrived == v.firstArrived
                && ttftNs == v.ttftNs
                && e2elNs == v.e2elNs
                && tpotNs.equals(v.tpotNs)
                && tokenLatencyNs.equals(v.tokenLatencyNs)
                && Arrays.equals(itlNs, v.itlNs)
                && promptTokens == v.promptTokens
                && outputTokens == v.outputTokens
                && clientQueueNs.equals(v.clientQueueNs)
                && cachedTokens.equals(v.cachedTokens)
                && Double.compare(inputAudioSeconds, v.inputAudioSeconds) == 0;
    }

    @Override
    public int hashCode() {
        return 31 * (31 * Long.hashCode(sentNs) + Long.hashCode(e2elNs)) + Arrays.hashCode(itlNs);
    }

    @Override
    public String toString() {
        return "RequestValues[success=" + success + ", ttftNs=" + ttftNs + ", e2elNs=" + e2elNs + ", tpotNs=" + tpotNs
                + ", itl samples=" + itlNs.length + ", n=" + outputTokens + "]";
    }
}
