package io.tokenpulse.aggregator.topology;

import io.tokenpulse.aggregator.metrics.GoodputSlo;
import io.tokenpulse.aggregator.metrics.LatencyStats;
import io.tokenpulse.aggregator.metrics.Metric;
import io.tokenpulse.aggregator.metrics.MetricPercentiles;
import io.tokenpulse.aggregator.metrics.MetricStats;
import io.tokenpulse.aggregator.metrics.MetricsAccumulator;
import io.tokenpulse.aggregator.metrics.PercentileMetrics;
import io.tokenpulse.aggregator.metrics.ReasoningAccumulator;
import io.tokenpulse.aggregator.metrics.ReasoningResult;
import io.tokenpulse.aggregator.metrics.RunResult;
import io.tokenpulse.aggregator.metrics.ServerAccumulator;
import io.tokenpulse.aggregator.records.RequestMetricsMapper;
import io.tokenpulse.aggregator.records.ServerMetricMapper;
import io.tokenpulse.schemas.avro.WindowLatency;
import io.tokenpulse.schemas.avro.WindowMetrics;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/**
 * The live window's accumulators (its requests', its server scrapes', its reasoning requests') and its
 * {@link WindowMetrics} record; the math is in {@code metrics}.
 */
final class WindowRecords {
    /**
     * Samples kept exactly per metric in one window before the sketch takes over: 8 metrics x 8192
     * x 8 bytes stay under Kafka's 1 MB record limit on the window store's changelog.
     */
    static final int WINDOW_EXACT_LIMIT = 8192;

    private static final List<Metric> WINDOW_METRICS =
            List.of(Metric.TTFT, Metric.TPOT, Metric.ITL, Metric.E2EL, Metric.QUEUE_DELAY);
    private static final List<Double> WINDOW_PERCENTILES = List.of(90.0, 99.0);
    private static final long NS_PER_MS = 1_000_000L;

    private WindowRecords() {}

    /** One window's state: what its requests, its server scrapes and its requests' thinking added. */
    record State(MetricsAccumulator requests, ServerAccumulator server, ReasoningAccumulator reasoning) {}

    /**
     * The requests' accumulator as it always was, then the server's, then the reasoning one's: a window
     * stored before a later part existed still reads (with that part empty).
     */
    static Serde<State> serde() {
        return Serdes.serdeFrom((topic, state) -> state == null ? null : write(state), (topic, bytes) -> {
            if (bytes == null) {
                return null;
            }
            try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
                MetricsAccumulator requests = MetricsAccumulator.readFrom(in);
                ServerAccumulator server = in.available() > 0 ? ServerAccumulator.read(in) : new ServerAccumulator();
                return new State(
                        requests,
                        server,
                        in.available() > 0
                                ? ReasoningAccumulator.readFrom(in)
                                : new ReasoningAccumulator(WINDOW_EXACT_LIMIT));
            } catch (IOException e) {
                throw new UncheckedIOException("corrupt window state: " + e.getMessage(), e);
            }
        });
    }

    private static byte[] write(State state) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            state.requests().writeTo(out);
            state.server().write(out);
            state.reasoning().writeTo(out);
        } catch (IOException e) {
            throw new IllegalStateException("writing to memory cannot fail", e);
        }
        return bytes.toByteArray();
    }

    /** Peak buckets are not shown per window, so any fixed origin does; goodput is a run figure. */
    static State empty() {
        return new State(
                new MetricsAccumulator(0, GoodputSlo.NONE, WINDOW_EXACT_LIMIT),
                new ServerAccumulator(),
                new ReasoningAccumulator(WINDOW_EXACT_LIMIT));
    }

    /** Adds a request's metrics or a server scrape's delta ({@link ServerSeries}). */
    static State add(State window, RunWindows.Counted input) {
        // probes have their own section and stay out of the live view's figures
        if (input instanceof RunWindows.Request request && !request.metrics().getProbe()) {
            var values = RequestMetricsMapper.values(request.metrics());
            window.requests().add(values);
            window.reasoning().add(values, RequestMetricsMapper.reasoning(request.metrics()));
        } else if (input instanceof RunWindows.ServerDelta scrape) {
            window.server().add(ServerMetricMapper.sample(scrape.delta()));
        }
        return window;
    }

    static WindowMetrics toRecord(String runId, long startMs, long endMs, State state) {
        MetricsAccumulator acc = state.requests();
        long lengthNs = (endMs - startMs) * NS_PER_MS;
        // RunResult.of holds the throughput formulas; a window's length plays the duration.
        RunResult rates = RunResult.of(acc, lengthNs, PercentileMetrics.DEFAULT, MetricPercentiles.DEFAULT);
        WindowMetrics record = WindowMetrics.newBuilder()
                .setRunId(runId)
                .setWindowStartEpochMs(startMs)
                .setWindowEndEpochMs(endMs)
                .setCompleted(acc.completed())
                .setFailed(acc.failed())
                .setInputTokens(acc.totalInputTokens())
                .setOutputTokens(acc.totalOutputTokens())
                .setRequestThroughput(rates.requestThroughput())
                .setOutputThroughput(rates.outputThroughput())
                .setTotalTokenThroughput(rates.totalTokenThroughput())
                .setLatencies(latencies(state))
                .setCachedTokens(acc.totalCachedTokens())
                .setPrefixCacheHitRate(
                        acc.prefixCacheHitRate().isPresent()
                                ? acc.prefixCacheHitRate().getAsDouble()
                                : null)
                .build();
        // the server section's keys are the record's field names
        state.server().values().forEach((key, value) -> record.put(key, value));
        return record;
    }

    /** The window's metrics, then TTFO when a request finished in it thought (other runs' windows stay as they were). */
    private static List<WindowLatency> latencies(State state) {
        List<WindowLatency> latencies = new ArrayList<>();
        for (Metric metric : WINDOW_METRICS) {
            MetricStats stats = state.requests().stats(metric, WINDOW_PERCENTILES);
            latencies.add(latency(metric.key(), stats.latency()));
        }
        state.reasoning()
                .result(WINDOW_PERCENTILES)
                .ifPresent(r -> latencies.add(latency(ReasoningResult.TTFO_KEY, r.ttfo())));
        return latencies;
    }

    private static WindowLatency latency(String metric, LatencyStats stats) {
        return WindowLatency.newBuilder()
                .setMetric(metric)
                .setCount(stats.count())
                .setMeanMs(stats.meanMs())
                .setMedianMs(stats.medianMs())
                .setP90Ms(stats.percentiles().get(0).valueMs())
                .setP99Ms(stats.percentiles().get(1).valueMs())
                .setStdMs(stats.stdMs())
                .build();
    }
}
