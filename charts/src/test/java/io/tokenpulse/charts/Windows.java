package io.tokenpulse.charts;

import io.tokenpulse.schemas.avro.WindowLatency;
import io.tokenpulse.schemas.avro.WindowMetrics;
import java.util.ArrayList;
import java.util.List;

/** Hand-made window records for the chart tests. */
final class Windows {
    private Windows() {}

    /** Epoch ms of the first window in every test: an arbitrary whole 10 s. */
    static final long T0_MS = 1_700_000_000_000L;

    /**
     * A 10 s window of run {@code runId}, {@code index} windows after {@link #T0_MS}, with
     * {@code completed} requests and every latency metric at the given median and P99 (none when
     * {@code completed} is 0).
     */
    static WindowMetrics window(String runId, int index, long completed, double medianMs, double p99Ms) {
        long start = T0_MS + index * 10_000L;
        List<WindowLatency> latencies = new ArrayList<>();
        for (String metric : List.of("ttft", "tpot", "itl", "e2el", "queue_delay")) {
            latencies.add(new WindowLatency(metric, completed, medianMs, medianMs, p99Ms, p99Ms, 0.0));
        }
        return WindowMetrics.newBuilder()
                .setRunId(runId)
                .setWindowStartEpochMs(start)
                .setWindowEndEpochMs(start + 10_000L)
                .setCompleted(completed)
                .setFailed(0L)
                .setInputTokens(completed * 100)
                .setOutputTokens(completed * 50)
                .setRequestThroughput(completed / 10.0)
                .setOutputThroughput(completed * 5.0)
                .setTotalTokenThroughput(completed * 15.0)
                .setLatencies(latencies)
                .build();
    }
}
