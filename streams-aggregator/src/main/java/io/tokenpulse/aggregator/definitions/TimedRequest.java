package io.tokenpulse.aggregator.definitions;

import java.util.Arrays;

/**
 * One request of a run as every tool's definition sees it: when it was sent, when each streamed
 * event arrived, whether that event carried text, when the stream closed and its token counts. All
 * times are nanoseconds on one clock (the run's wall clock, ns since the epoch, in {@code rescore}).
 *
 * @param sentNs       immediately before the HTTP request was written
 * @param chunkNs      arrival of each streamed event with a non-empty {@code choices} (vLLM's rule:
 *     empty text included; usage-only events excluded), in stream order
 * @param emptyText    per event, true when it carried no text (a role-only or special-token event);
 *     the same length as {@code chunkNs}
 * @param endNs        when the stream closed (after {@code [DONE]}), or the error
 * @param outputTokens output tokens N: {@code usage.completion_tokens}, else the tokenizer's count
 * @param promptTokens input tokens: {@code usage.prompt_tokens}, else the dataset's count
 * @param success      whether TokenPulse (vLLM's rule) counted the request as successful
 * @throws IllegalArgumentException for arrays of different lengths, a chunk before the send, or
 *     negative token counts
 */
public record TimedRequest(
        long sentNs,
        long[] chunkNs,
        boolean[] emptyText,
        long endNs,
        int outputTokens,
        int promptTokens,
        boolean success) {

    public TimedRequest {
        chunkNs = chunkNs.clone();
        emptyText = emptyText.clone();
        if (chunkNs.length != emptyText.length) {
            throw new IllegalArgumentException(
                    chunkNs.length + " chunk times but " + emptyText.length + " empty-text flags");
        }
        for (int i = 0; i < chunkNs.length; i++) {
            if (chunkNs[i] < sentNs || (i > 0 && chunkNs[i] < chunkNs[i - 1])) {
                throw new IllegalArgumentException("chunk " + i + " arrives before the send or the chunk before it");
            }
        }
        if (outputTokens < 0 || promptTokens < 0) {
            throw new IllegalArgumentException("negative token count: " + outputTokens + ", " + promptTokens);
        }
    }

    /** A request whose events all carried text. */
    public static TimedRequest of(
            long sentNs, long[] chunkNs, long endNs, int outputTokens, int promptTokens, boolean success) {
        return new TimedRequest(
                sentNs, chunkNs, new boolean[chunkNs.length], endNs, outputTokens, promptTokens, success);
    }

    /** Arrival times of the events that carried text (what GuideLLM, AIPerf, SGLang and inference-perf keep). */
    public long[] contentNs() {
        return java.util.stream.IntStream.range(0, chunkNs.length)
                .filter(i -> !emptyText[i])
                .mapToLong(i -> chunkNs[i])
                .toArray();
    }

    /** Arrival times of every streamed event (what vLLM keeps). */
    @Override
    public long[] chunkNs() {
        return chunkNs.clone();
    }

    @Override
    public boolean[] emptyText() {
        return emptyText.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TimedRequest r
                && sentNs == r.sentNs
                && Arrays.equals(chunkNs, r.chunkNs)
                && Arrays.equals(emptyText, r.emptyText)
                && endNs == r.endNs
                && outputTokens == r.outputTokens
                && promptTokens == r.promptTokens
                && success == r.success;
    }

    @Override
    public int hashCode() {
        return 31 * Long.hashCode(sentNs) + Arrays.hashCode(chunkNs);
    }

    @Override
    public String toString() {
        return "TimedRequest[sent=" + sentNs + ", chunks=" + Arrays.toString(chunkNs) + ", end=" + endNs + ", n="
                + outputTokens + ", success=" + success + "]";
    }
}
