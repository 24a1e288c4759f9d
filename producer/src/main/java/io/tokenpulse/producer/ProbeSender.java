package io.tokenpulse.producer;

import io.tokenpulse.producer.dataset.Prompt;
import io.tokenpulse.producer.dataset.SampledRequest;
import java.util.OptionalLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * {@code --probe-request-rate R} (vllm#49611): a light request every {@code 1/R} seconds from the schedule
 * start until the run's own requests have all ended (its drain included), outside {@code --max-concurrency},
 * so its TTFT and E2EL show how the run's traffic slows a request that needs almost no work, its tail too. A probe asks for one token of a short fixed prompt;
 * its records carry {@code probe = true}, and the aggregator reports probes in their own section, never in
 * the run's counts, throughputs, latencies, windows or meters.
 *
 * <p>Probe indices start at {@link #INDEX_BASE} plus a range per shard, far above any dataset index, so their
 * request keys never meet a prompt's. Threading: its own daemon thread sleeps until each probe is due and
 * hands it to {@code launch}, which must not block (the HTTP client's send does not).
 */
final class ProbeSender implements AutoCloseable {

    /** More probes than this per second would be load, not probes. */
    static final double MAX_RATE = 1000;

    /** The short fixed prompt every probe sends. */
    static final String PROMPT = "Hi";

    /** The first probe's request index; shard {@code s}'s probes start at {@code INDEX_BASE + s * SHARD_RANGE}. */
    static final int INDEX_BASE = 1_000_000_000;

    static final int SHARD_RANGE = 10_000_000;

    private final Thread thread;
    private volatile boolean stopped;

    /**
     * Starts sending.
     *
     * @param ratePerS   probes per second
     * @param startNs    the schedule start ({@link System#nanoTime()}); the first probe is due one gap after it
     * @param shardIndex this shard, for its probes' index range
     * @param launch     sends one probe request
     */
    ProbeSender(double ratePerS, long startNs, int shardIndex, Consumer<PlannedRequest> launch) {
        long gapNs = Math.max(1, Math.round(1e9 / ratePerS));
        int firstIndex = INDEX_BASE + shardIndex * SHARD_RANGE;
        thread = new Thread(
                () -> {
                    for (int k = 0; k < SHARD_RANGE && !stopped; k++) {
                        long offsetNs = (k + 1) * gapNs;
                        long waitNs;
                        while (!stopped && (waitNs = startNs + offsetNs - System.nanoTime()) > 0) {
                            LockSupport.parkNanos(waitNs);
                        }
                        if (stopped) {
                            return;
                        }
                        int index = firstIndex + k;
                        launch.accept(new PlannedRequest(
                                index,
                                offsetNs,
                                new SampledRequest(new Prompt.Text(PROMPT), 1, 1, index, OptionalLong.empty())));
                    }
                },
                "tokenpulse-probes-" + shardIndex);
        thread.setDaemon(true);
        thread.start();
    }

    /** Stops sending and waits for a probe being handed over; probes in flight go on. */
    @Override
    public void close() {
        stopped = true;
        LockSupport.unpark(thread);
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
