package io.tokenpulse.simulator;

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
            throw new IllegalArgumentException("TTFT and token gap must be >= 0, got " + ttftNs + " ns and " + gapNs + " ns");
        }
    }

    public static DeterministicModel of(Duration ttft, Duration gap) {
        return new DeterministicModel(ttft.toNanos(), gap.toNanos());
    }

    @Override
    public void generate(Generation generation) {
        scheduleToken(generation, 0);
    }

    private void scheduleToken(Generation generation, int index) {
        long dueNs = generation.receivedNs() + ttftNs + index * gapNs;
        generation.scheduler().schedule(() -> {
            if (generation.isDone()) {
                return;
            }
            generation.emit(1, dueNs);
            if (index + 1 < generation.maxTokens()) {
                scheduleToken(generation, index + 1);
            }
        }, dueNs - System.nanoTime(), TimeUnit.NANOSECONDS);
    }
}
