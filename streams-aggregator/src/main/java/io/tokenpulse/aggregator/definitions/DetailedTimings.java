package io.tokenpulse.aggregator.definitions;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A result file's {@code --save-detailed} lists as a {@link TimedRun}. The lists keep each request's
 * TTFT and ITL samples (one per streamed event after the first), its token counts and its error, but
 * not when it was sent: every request is taken as sent at 0, so the latencies (TTFT, ITL, TPOT,
 * E2EL) and the counts are each tool's, and the run's timeline (duration, throughputs) is not.
 * Every event counts as carrying text: the lists do not say which were empty.
 */
public final class DetailedTimings {

    private static final double NS_PER_SECOND = 1e9;

    private DetailedTimings() {}

    /**
     * @param ttftsS     each request's TTFT in seconds, 0 for a request without an event
     * @param itlsS      each request's ITL samples in seconds
     * @param inputLens  each request's prompt tokens
     * @param outputLens each request's output tokens (0 for a failure)
     * @param errors     each request's error, "" for a success; without them a request with an event succeeded
     * @throws IllegalArgumentException for lists of different lengths
     */
    public static TimedRun of(
            List<Double> ttftsS,
            List<List<Double>> itlsS,
            List<Integer> inputLens,
            List<Integer> outputLens,
            Optional<List<String>> errors) {
        int n = ttftsS.size();
        if (itlsS.size() != n
                || inputLens.size() != n
                || outputLens.size() != n
                || errors.map(List::size).orElse(n) != n) {
            throw new IllegalArgumentException("the per-request lists differ in length: " + n + " ttfts, "
                    + itlsS.size() + " itls, " + inputLens.size() + " input_lens, " + outputLens.size()
                    + " output_lens"
                    + errors.map(e -> ", " + e.size() + " errors").orElse(""));
        }
        List<TimedRequest> requests = new ArrayList<>(n);
        long endNs = 0;
        for (int i = 0; i < n; i++) {
            long ttftNs = Math.round(ttftsS.get(i) * NS_PER_SECOND);
            List<Double> itls = itlsS.get(i);
            long[] chunks = new long[ttftNs > 0 ? itls.size() + 1 : 0];
            if (chunks.length > 0) {
                chunks[0] = ttftNs;
                for (int c = 1; c < chunks.length; c++) {
                    chunks[c] = chunks[c - 1] + Math.round(itls.get(c - 1) * NS_PER_SECOND);
                }
            }
            long end = chunks.length == 0 ? 0 : chunks[chunks.length - 1];
            boolean success = errors.isPresent() ? errors.get().get(i).isEmpty() : chunks.length > 0;
            requests.add(TimedRequest.of(0, chunks, end, outputLens.get(i), inputLens.get(i), success));
            endNs = Math.max(endNs, end);
        }
        return new TimedRun(0, endNs, requests);
    }
}
