package io.tokenpulse.simulator.engine;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** A {@link Generation} that keeps the (virtual) time of each token and derives TTFT and TPOT from them. */
final class RecordingGeneration implements Generation {

    private final int[] promptIds;
    private final int promptTokens;
    private final int maxTokens;
    private final long receivedNs;
    private final long[] tokenNs;
    private int emitted;
    /** What the model reported of its prefix cache, or -1 when it said nothing. */
    private volatile int cachedTokens = -1;
    /** Counted down at the last token, for a model running on a thread of its own. */
    private final CountDownLatch finished = new CountDownLatch(1);

    /** A prompt of {@code promptTokens} tokens the prefix cache cannot key on (no ids). */
    RecordingGeneration(int promptTokens, int maxTokens, long receivedNs) {
        this(new int[0], promptTokens, maxTokens, receivedNs);
    }

    /** A prompt of these token ids. */
    RecordingGeneration(int[] promptIds, int maxTokens, long receivedNs) {
        this(promptIds, promptIds.length, maxTokens, receivedNs);
    }

    private RecordingGeneration(int[] promptIds, int promptTokens, int maxTokens, long receivedNs) {
        this.promptIds = promptIds;
        this.promptTokens = promptTokens;
        this.maxTokens = maxTokens;
        this.receivedNs = receivedNs;
        this.tokenNs = new long[maxTokens];
    }

    @Override
    public String requestId() {
        return "virtual";
    }

    @Override
    public int promptTokens() {
        return promptTokens;
    }

    @Override
    public int[] promptIds() {
        return promptIds;
    }

    @Override
    public int maxTokens() {
        return maxTokens;
    }

    @Override
    public long receivedNs() {
        return receivedNs;
    }

    @Override
    public ScheduledExecutorService scheduler() {
        throw new UnsupportedOperationException("the batching model runs on its own clock");
    }

    @Override
    public void emit(int tokens, long dueNs) {
        for (int i = 0; i < tokens && emitted < maxTokens; i++) {
            tokenNs[emitted++] = dueNs;
        }
        if (emitted == maxTokens) {
            finished.countDown();
        }
    }

    /** Waits for the last token (emitted on another thread); false when it did not come in time. */
    boolean awaitLastToken(Duration timeout) throws InterruptedException {
        return finished.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    @Override
    public void prefixCached(int tokens) {
        cachedTokens = tokens;
    }

    int cachedTokens() {
        return cachedTokens;
    }

    @Override
    public boolean isDone() {
        return emitted == maxTokens;
    }

    int emitted() {
        return emitted;
    }

    double ttftMs() {
        return (tokenNs[0] - receivedNs) / 1e6;
    }

    long lastNs() {
        return tokenNs[maxTokens - 1];
    }

    /** vLLM's TPOT: (latency - TTFT) / (output tokens - 1). */
    /** The longest and the shortest gap between two consecutive tokens, in ms. */
    double[] gapRangeMs() {
        double longest = 0;
        double shortest = Double.MAX_VALUE;
        for (int i = 1; i < maxTokens; i++) {
            double gap = (tokenNs[i] - tokenNs[i - 1]) / 1e6;
            longest = Math.max(longest, gap);
            shortest = Math.min(shortest, gap);
        }
        return new double[] {shortest, longest};
    }

    double tpotMs() {
        return (tokenNs[maxTokens - 1] - tokenNs[0]) / 1e6 / (maxTokens - 1);
    }
}
