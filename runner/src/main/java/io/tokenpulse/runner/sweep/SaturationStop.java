package io.tokenpulse.runner.sweep;

import io.tokenpulse.runner.EarlyStop;
import io.tokenpulse.schemas.python.Numpy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Stops a {@code sweep --search} point early once live first tokens show the server is past
 * saturation: when the P99 TTFT of the first tokens that arrived in each {@link #WINDOW} exceeds
 * {@code limitMs} ({@code --search-stop-margin} × the SLO's TTFT) in {@code windows} consecutive
 * windows. First tokens, not completions: a queue builds up long before the requests in it finish
 * (GuideLLM's completion-based stop reacts too late, guidellm#606). A window without a first token
 * neither counts nor breaks the streak.
 *
 * <p>Threading: {@link #firstToken} runs on the load generator's I/O threads and only appends to a
 * lock-free queue; a daemon thread of its own closes each window off the timing path.
 */
public final class SaturationStop implements EarlyStop {

    /** The live window: short, so a point past saturation stops within seconds. */
    static final Duration WINDOW = Duration.ofSeconds(1);

    private final double limitMs;
    private final int windows;
    private final ConcurrentLinkedQueue<Long> ttftNs = new ConcurrentLinkedQueue<>();
    private final CompletableFuture<String> stopped = new CompletableFuture<>();
    private final List<Double> streak = new ArrayList<>();
    private ScheduledExecutorService timer;

    /**
     * @param limitMs the window P99 TTFT above which a window counts, in ms
     * @param windows how many consecutive windows over the limit stop the point (>= 1)
     */
    public SaturationStop(double limitMs, int windows) {
        if (windows < 1) {
            throw new IllegalArgumentException("windows must be >= 1, got " + windows);
        }
        this.limitMs = limitMs;
        this.windows = windows;
    }

    /** Starts closing a window every {@link #WINDOW}. */
    public SaturationStop start() {
        timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "tp-saturation-stop");
            thread.setDaemon(true);
            return thread;
        });
        timer.scheduleAtFixedRate(this::closeWindow, WINDOW.toMillis(), WINDOW.toMillis(), TimeUnit.MILLISECONDS);
        return this;
    }

    @Override
    public void firstToken(long ttftNs) {
        this.ttftNs.offer(ttftNs);
    }

    /** Completes, with the reason, when the point is to stop early. */
    @Override
    public CompletionStage<String> stopped() {
        return stopped;
    }

    /** Why the point stopped early, if it did. */
    @Override
    public Optional<String> reason() {
        return Optional.ofNullable(stopped.getNow(null));
    }

    private void closeWindow() {
        List<Double> ms = new ArrayList<>();
        for (Long ns = ttftNs.poll(); ns != null; ns = ttftNs.poll()) {
            ms.add(ns / 1e6);
        }
        window(ms.stream().mapToDouble(Double::doubleValue).toArray()).ifPresent(stopped::complete);
    }

    /**
     * Adds one window's TTFTs (ms); returns the reason to stop when this window completes the streak.
     * Package-private for the table test; only the timer thread calls it otherwise.
     */
    Optional<String> window(double[] ttftMs) {
        if (ttftMs.length == 0 || stopped.isDone()) {
            return Optional.empty();
        }
        double[] sorted = ttftMs.clone();
        Arrays.sort(sorted);
        double p99 = Numpy.percentile(sorted, 99);
        if (p99 <= limitMs) {
            streak.clear();
            return Optional.empty();
        }
        streak.add(p99);
        if (streak.size() < windows) {
            return Optional.empty();
        }
        return Optional.of(String.format(
                Locale.ROOT,
                "the live P99 TTFT of first tokens per %d s window exceeded %.0f ms %s (%s ms)",
                WINDOW.toSeconds(),
                limitMs,
                windows == 1 ? "once" : windows + " times in a row",
                String.join(
                        ", ",
                        streak.stream()
                                .map(v -> String.format(Locale.ROOT, "%.0f", v))
                                .toList())));
    }

    @Override
    public void close() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }
}
