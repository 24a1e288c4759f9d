package io.tokenpulse.aggregator.topology;

import io.tokenpulse.aggregator.metrics.GoodputSlo;
import io.tokenpulse.aggregator.metrics.Metric;
import io.tokenpulse.aggregator.metrics.MetricPercentiles;
import io.tokenpulse.aggregator.metrics.MetricStats;
import io.tokenpulse.aggregator.metrics.MetricsAccumulator;
import io.tokenpulse.aggregator.metrics.PercentileMetrics;
import io.tokenpulse.aggregator.metrics.RunResult;
import io.tokenpulse.aggregator.metrics.ServerAccumulator;
import io.tokenpulse.aggregator.records.RequestMetricsMapper;
import io.tokenpulse.aggregator.records.ServerMetricMapper;
import io.tokenpulse.schemas.avro.RequestMetrics;
import io.tokenpulse.schemas.avro.ServerMetric;
import io.tokenpulse.schemas.avro.WindowLatency;
import io.tokenpulse.schemas.avro.WindowMetrics;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.kstream.Windowed;

/**
 * The live window's accumulators (its requests', its server scrapes') and its {@link WindowMetrics}
 * record; the math is in {@code metrics}.
 */
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

    /** One window's state: what its requests and its server scrapes added. */
    record State(MetricsAccumulator requests, ServerAccumulator server) {}

    /**
     * The requests' accumulator as it always was, then the server's: a window stored before the
     * server series existed still reads (with an empty server part).
     */
    static Serde<State> serde() {
        return Serdes.serdeFrom((topic, state) -> state == null ? null : write(state), (topic, bytes) -> {
            if (bytes == null) {
                return null;
            }
            try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
                MetricsAccumulator requests = MetricsAccumulator.readFrom(in);
                return new State(requests, in.available() > 0 ? ServerAccumulator.read(in) : new ServerAccumulator());
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
        } catch (IOException e) {
            throw new IllegalStateException("writing to memory cannot fail", e);
        }
        return bytes.toByteArray();
    }

    /** Peak buckets are not shown per window, so any fixed origin does; goodput is a run figure. */
    static State empty() {
        return new State(new MetricsAccumulator(0, GoodputSlo.NONE, WINDOW_EXACT_LIMIT), new ServerAccumulator());
    }

    /** Adds a request's metrics or a server scrape's delta ({@link ServerSeries}). */
    static State add(State window, SpecificRecord input) {
        if (input instanceof RequestMetrics request) {
            window.requests().add(RequestMetricsMapper.values(request));
        } else {
            window.server().add(ServerMetricMapper.sample((ServerMetric) input));
        }
        return window;
    }

    static WindowMetrics toRecord(Windowed<String> window, State state) {
        MetricsAccumulator acc = state.requests();
        long lengthNs = (window.window().end() - window.window().start()) * NS_PER_MS;
        // RunResult.of holds the throughput formulas; a window's length plays the duration.
        RunResult rates = RunResult.of(acc, lengthNs, PercentileMetrics.DEFAULT, MetricPercentiles.DEFAULT);
        WindowMetrics record = WindowMetrics.newBuilder()
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
        // the server section's keys are the record's field names
        state.server().values().forEach((key, value) -> record.put(key, value));
        return record;
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
