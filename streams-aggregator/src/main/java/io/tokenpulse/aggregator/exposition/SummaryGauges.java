package io.tokenpulse.aggregator.exposition;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.tokenpulse.aggregator.scoring.ServerScoring;
import io.tokenpulse.schemas.avro.MetricSummary;
import io.tokenpulse.schemas.avro.PercentileValue;
import io.tokenpulse.schemas.avro.RunSummary;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * A finished run's {@link RunSummary} as constant gauges under the run's tags, so a dashboard shows
 * vLLM's final block without reading Kafka. The values are the summary's own (scored once by
 * {@code scoring.RunScoring}); nothing is recomputed here. Names as scraped:
 * <ul>
 *   <li>{@code tokenpulse_summary_requests{status="success|failure"}}, {@code tokenpulse_summary_duration_seconds},
 *       {@code tokenpulse_summary_tokens{kind="input|output"}};
 *   <li>{@code tokenpulse_summary_requests_per_second}, {@code tokenpulse_summary_goodput_requests_per_second}
 *       (only with {@code --goodput}), {@code tokenpulse_summary_output_tokens_per_second},
 *       {@code tokenpulse_summary_total_tokens_per_second},
 *       {@code tokenpulse_summary_peak_output_tokens_per_second}, {@code tokenpulse_summary_peak_concurrent_requests},
 *       {@code tokenpulse_summary_rtfx} (an audio run's seconds of audio per second, only when it sent audio);
 *   <li>per metric of {@code --percentile-metrics}: {@code tokenpulse_summary_latency_seconds{metric, quantile}}
 *       (the median as {@code quantile="0.5"} and each {@code --metric-percentiles} value, 99 as {@code "0.99"}),
 *       {@code tokenpulse_summary_latency_mean_seconds{metric}}, {@code tokenpulse_summary_latency_std_seconds{metric}};
 *       a reasoning run adds its time to first output token as {@code metric="ttfo"};
 *   <li>{@code tokenpulse_summary_records_not_delivered};
 *   <li>with a server section ({@code --server-metrics}), each of its values the scraped engines exposed,
 *       named as the window's ({@code tokenpulse_summary_server_running_mean}, ..., times in seconds:
 *       {@code tokenpulse_summary_server_ttft_p99_seconds}) plus {@code tokenpulse_summary_server_ttft_gap_seconds}
 *       (client minus server mean TTFT).
 * </ul>
 */
final class SummaryGauges {
    private static final double NS_PER_S = 1e9;
    private static final double MS_PER_S = 1e3;

    private SummaryGauges() {}

    static void register(MeterRegistry registry, Tags runTags, RunSummary s) {
        gauge(registry, "tokenpulse.summary.requests", runTags.and("status", "success"), null, s.getCompleted());
        gauge(registry, "tokenpulse.summary.requests", runTags.and("status", "failure"), null, s.getFailed());
        gauge(registry, "tokenpulse.summary.duration", runTags, "seconds", s.getDurationNs() / NS_PER_S);
        gauge(registry, "tokenpulse.summary.tokens", runTags.and("kind", "input"), null, s.getTotalInputTokens());
        gauge(registry, "tokenpulse.summary.tokens", runTags.and("kind", "output"), null, s.getTotalOutputTokens());
        gauge(registry, "tokenpulse.summary.requests.per.second", runTags, null, s.getRequestThroughput());
        if (s.getRequestGoodput() != null) {
            gauge(registry, "tokenpulse.summary.goodput.requests.per.second", runTags, null, s.getRequestGoodput());
        }
        gauge(registry, "tokenpulse.summary.output.tokens.per.second", runTags, null, s.getOutputThroughput());
        gauge(registry, "tokenpulse.summary.total.tokens.per.second", runTags, null, s.getTotalTokenThroughput());
        gauge(registry, "tokenpulse.summary.peak.output.tokens.per.second", runTags, null, s.getMaxOutputTokensPerS());
        gauge(registry, "tokenpulse.summary.peak.concurrent.requests", runTags, null, s.getMaxConcurrentRequests());
        gauge(registry, "tokenpulse.summary.records.not.delivered", runTags, null, s.getRecordsNotDelivered());
        // vLLM's RTFx: only an audio run has it (0 in the summary otherwise, and no line in vLLM's block)
        if (s.getRtfx() > 0) {
            gauge(registry, "tokenpulse.summary.rtfx", runTags, null, s.getRtfx());
        }
        // a reasoning run's TTFO (extension) under metric="ttfo", like the selected metrics
        List<MetricSummary> metrics = new ArrayList<>(s.getMetrics());
        if (s.getReasoning() != null) {
            metrics.add(s.getReasoning().getTtfo());
        }
        for (MetricSummary metric : metrics) {
            Tags tags = runTags.and("metric", metric.getMetric());
            gauge(
                    registry,
                    "tokenpulse.summary.latency",
                    tags.and("quantile", "0.5"),
                    "seconds",
                    metric.getMedianMs() / MS_PER_S);
            for (PercentileValue p : metric.getPercentiles()) {
                gauge(
                        registry,
                        "tokenpulse.summary.latency",
                        tags.and("quantile", quantile(p.getPercentile())),
                        "seconds",
                        p.getValueMs() / MS_PER_S);
            }
            gauge(registry, "tokenpulse.summary.latency.mean", tags, "seconds", metric.getMeanMs() / MS_PER_S);
            gauge(registry, "tokenpulse.summary.latency.std", tags, "seconds", metric.getStdMs() / MS_PER_S);
        }
        ServerScoring.values(s.getServer()).forEach((key, value) -> {
            String name = key.equals("server_ttft_gap_ms") ? "server.ttft.gap" : RunMeters.SERVER_GAUGES.get(key);
            boolean ms = key.endsWith("_ms");
            gauge(
                    registry,
                    "tokenpulse.summary." + name,
                    runTags,
                    ms ? "seconds" : null,
                    ms ? value / MS_PER_S : value);
        });
    }

    /** Percentile 99 as Prometheus' quantile label "0.99"; decimal, so 99.9 gives "0.999", not 0.9990000000000001. */
    static String quantile(double percentile) {
        return BigDecimal.valueOf(percentile)
                .movePointLeft(2)
                .stripTrailingZeros()
                .toPlainString();
    }

    private static void gauge(MeterRegistry registry, String name, Tags tags, String baseUnit, double value) {
        // A constant: the summary is final. A percentile equal to the median (50) registers the same
        // id twice, which Micrometer resolves to the first gauge, of the same value.
        Gauge.builder(name, () -> value)
                .tags(tags)
                .baseUnit(baseUnit)
                .strongReference(true)
                .description("Final value of a finished run (run summary)")
                .register(registry);
    }
}
