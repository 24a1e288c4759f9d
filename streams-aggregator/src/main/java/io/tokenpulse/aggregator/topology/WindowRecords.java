package io.tokenpulse.aggregator.topology;

import io.tokenpulse.aggregator.metrics.GoodputSlo;
import io.tokenpulse.aggregator.metrics.Metric;
import io.tokenpulse.aggregator.metrics.MetricPercentiles;
import io.tokenpulse.aggregator.metrics.MetricStats;
import io.tokenpulse.aggregator.metrics.MetricsAccumulator;
import io.tokenpulse.aggregator.metrics.PercentileMetrics;
import io.tokenpulse.aggregator.metrics.RunResult;
import io.tokenpulse.aggregator.records.RequestMetricsMapper;
import io.tokenpulse.schemas.avro.RequestMetrics;
import io.tokenpulse.schemas.avro.WindowLatency;
import io.tokenpulse.schemas.avro.WindowMetrics;
import java.util.List;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.kstream.Windowed;

/** The live window's accumulator and its {@link WindowMetrics} record; the math is in {@code metrics}. */
final class WindowRecords {
    /**
     * Samples kept exactly per metric in one window before the sketch takes over: 6 metrics x 8192
     * x 8 bytes stay under Kafka's 1 MB record limit on the window store's changelog.
     */
    static final int WINDOW_EXACT_LIMIT = 8192;

    private static final List<Metric> WINDOW_METRICS =
            List.of(Metric.TTFT, Metric.TPOT, Metric.ITL, Metric.E2EL, Metric.QUEUE_DELAY);
    private static final List<Double> WINDOW_PERCENTILES = List.of(90.0, 99.0);
    private static final long NS_PER_MS = 1_000_000L;

    private WindowRecords() {}

    static Serde<MetricsAccumulator> serde() {
        return Serdes.serdeFrom(
                (topic, acc) -> acc == null ? null : acc.toBytes(),
                (topic, bytes) -> bytes == null ? null : MetricsAccumulator.fromBytes(bytes));
    }

    /** Peak buckets are not shown per window, so any fixed origin does; goodput is a run figure. */
    static MetricsAccumulator empty() {
        return new MetricsAccumulator(0, GoodputSlo.NONE, WINDOW_EXACT_LIMIT);
    }

    static MetricsAccumulator add(MetricsAccumulator window, RequestMetrics request) {
        window.add(RequestMetricsMapper.values(request));
        return window;
    }

    static WindowMetrics toRecord(Windowed<String> window, MetricsAccumulator acc) {
        long lengthNs = (window.window().end() - window.window().start()) * NS_PER_MS;
        // RunResult.of holds the throughput formulas; a window's length plays the duration.
        RunResult rates = RunResult.of(acc, lengthNs, PercentileMetrics.DEFAULT, MetricPercentiles.DEFAULT);
        return WindowMetrics.newBuilder()
                .setRunId(window.key())
                .setWindowStartEpochMs(window.window().start())
                .setWindowEndEpochMs(window.window().end())
                .setCompleted(acc.completed())
                .setFailed(acc.failed())
                .setInputTokens(acc.totalInputTokens())
                .setOutputTokens(acc.totalOutputTokens())
                .setRequestThroughput(rates.requestThroughput())
                .setOutputThroughput(rates.outputThroughput())
                .setTotalTokenThroughput(rates.totalTokenThroughput())
                .setLatencies(WINDOW_METRICS.stream()
                        .map(m -> latency(acc.stats(m, WINDOW_PERCENTILES)))
                        .toList())
                .build();
    }

    private static WindowLatency latency(MetricStats stats) {
        return WindowLatency.newBuilder()
                .setMetric(stats.metric().key())
                .setCount(stats.count())
                .setMeanMs(stats.meanMs())
                .setMedianMs(stats.medianMs())
                .setP90Ms(stats.percentiles().get(0).valueMs())
                .setP99Ms(stats.percentiles().get(1).valueMs())
                .setStdMs(stats.stdMs())
                .build();
    }
}
