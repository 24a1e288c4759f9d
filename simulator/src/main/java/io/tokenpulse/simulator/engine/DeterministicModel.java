package io.tokenpulse.simulator.engine;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Ground truth for measuring a client: the first token {@code ttftNs} after the request arrived,
 * then one token every {@code gapNs}, whatever the load. Deadlines are absolute (start + ttft +
 * i * gap), so a late timer does not push the later tokens back.
 */
public record DeterministicModel(long ttftNs, long gapNs) implements LatencyModel {

    public DeterministicModel {
        if (ttftNs < 0 || gapNs < 0) {
            throw new IllegalArgumentException(
                    "TTFT and token gap must be >= 0, got " + ttftNs + " ns and " + gapNs + " ns");
        }
    }

    public static DeterministicModel of(Duration ttft, Duration gap) {
        return new DeterministicModel(ttft.toNanos(), gap.toNanos());
    }

    @Override
    public void generate(Generation generation) {
        new TokenTimer(generation).scheduleNext();
    }

    /**
     * One request's timer, rescheduled after each token: one object per request instead of a
     * capturing lambda per token (tens of thousands of tokens a second at 2 000 streams).
     */
    private final class TokenTimer implements Runnable {
        private final Generation generation;
        private int index;

        TokenTimer(Generation generation) {
            this.generation = generation;
        }

        private long dueNs() {
            return generation.receivedNs() + ttftNs + index * gapNs;
        }

        void scheduleNext() {
            generation.scheduler().schedule(this, dueNs() - System.nanoTime(), TimeUnit.NANOSECONDS);
        }

        @Override
        public void run() {
            if (generation.isDone()) {
                return;
            }
            generation.emit(1, dueNs());
            index++;
            if (index < generation.maxTokens()) {
                scheduleNext();
            }
        }
    }
}
