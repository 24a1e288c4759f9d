package io.tokenpulse.aggregator.report;

import io.tokenpulse.aggregator.metrics.LatencyStats;
import io.tokenpulse.aggregator.metrics.Metric;
import io.tokenpulse.aggregator.metrics.MetricStats;
import io.tokenpulse.aggregator.metrics.MetricsAccumulator;
import io.tokenpulse.aggregator.metrics.PrefixCache;
import io.tokenpulse.aggregator.metrics.ReasoningResult;
import io.tokenpulse.aggregator.metrics.RunResult;
import io.tokenpulse.schemas.avro.MetricSummary;
import io.tokenpulse.schemas.avro.PrefixCacheSummary;
import io.tokenpulse.schemas.avro.ProbeSummary;
import io.tokenpulse.schemas.avro.ReasoningSummary;
import io.tokenpulse.schemas.avro.RequestMetrics;
import io.tokenpulse.schemas.avro.RunSummary;
import io.tokenpulse.schemas.avro.SteadyStateSummary;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * Reads the records the topology wrote back into the report's types, so that the printed block and
 * the result file come from the run-summary and request-metrics topics, not from a second computation.
 */
public final class SummaryRecords {
    private static final double NS_PER_SECOND = 1e9;

    private SummaryRecords() {}

    /** The run's identity and options as vLLM's report shows them. */
    public static RunConfig config(RunSummary summary) {
        return new RunConfig(
                summary.getDate(),
                summary.getBackend(),
                summary.getModelId(),
                summary.getTokenizerId(),
                summary.getNumPrompts(),
                summary.getRequestRate(),
                summary.getBurstiness(),
                summary.getMaxConcurrency() == null
                        ? OptionalInt.empty()
                        : OptionalInt.of(summary.getMaxConcurrency()));
    }

    /** The run values and metric statistics of the summary. */
    public static RunResult result(RunSummary summary) {
        List<MetricStats> metrics =
                summary.getMetrics().stream().map(m -> stats(m, summary)).toList();
        return new RunResult(
                summary.getDurationNs(),
                summary.getCompleted(),
                summary.getFailed(),
                summary.getTotalInputTokens(),
                summary.getTotalOutputTokens(),
                summary.getRequestThroughput(),
                summary.getRequestGoodput() == null
                        ? OptionalDouble.empty()
                        : OptionalDouble.of(summary.getRequestGoodput()),
                summary.getOutputThroughput(),
                summary.getTotalTokenThroughput(),
                summary.getMaxOutputTokensPerS(),
                summary.getMaxConcurrentRequests(),
                summary.getItlExact(),
                metrics);
    }

    /** A LoRA run's per-model section, by model name; empty for other runs. */
    public static List<ModelResult> perModel(RunSummary summary) {
        return summary.getPerModel().stream()
                .map(m -> new ModelResult(
                        m.getModel(),
                        m.getCompleted(),
                        m.getFailed(),
                        m.getMetrics().stream().map(s -> stats(s, summary)).toList()))
                .toList();
    }

    /** What the load generators could not deliver to Kafka, as the result file reports it. */
    public static ResultJson.Delivery delivery(RunSummary summary) {
        return new ResultJson.Delivery(summary.getRecordsNotDelivered(), summary.getRecordsNotDeliveredByReason());
    }

    /** Whether the summary covers the whole run, as the result file reports it. */
    public static ResultJson.Completeness completeness(RunSummary summary) {
        return new ResultJson.Completeness(summary.getInterrupted(), summary.getIncomplete());
    }

    /** One request's {@code --save-detailed} entry; vLLM counts 0 output tokens for a failure. */
    public static RequestDetail detail(RequestMetrics request) {
        return new RequestDetail(
                request.getPromptLen(),
                request.getSuccess() ? request.getOutputTokens() : 0,
                request.getTtftNs() == null ? 0 : request.getTtftNs() / NS_PER_SECOND,
                request.getTtfoNs() == null ? 0 : request.getTtfoNs() / NS_PER_SECOND,
                request.getItlNs().stream().map(ns -> ns / NS_PER_SECOND).toList(),
                request.getGeneratedText() == null ? "" : request.getGeneratedText(),
                request.getError());
    }

    /** A reasoning run's figures (extension); empty for a run where no request thought. */
    public static Optional<ReasoningResult> reasoning(RunSummary summary) {
        ReasoningSummary r = summary.getReasoning();
        return r == null
                ? Optional.empty()
                : Optional.of(new ReasoningResult(
                        r.getRequests(),
                        r.getReasoningTokens(),
                        r.getAnswerTokens(),
                        // one sample per request: exact up to the accumulator's limit
                        latency(r.getTtfo(), r.getTtfo().getCount() <= MetricsAccumulator.DEFAULT_EXACT_LIMIT)));
    }

    /** The prefix-cache figures when a server reported {@code cached_tokens}; else empty. */
    public static Optional<PrefixCache> prefixCache(RunSummary summary) {
        PrefixCacheSummary c = summary.getPrefixCache();
        return c == null
                ? Optional.empty()
                : Optional.of(
                        new PrefixCache(c.getRequests(), c.getCachedTokens(), c.getPromptTokens(), c.getHitRate()));
    }

    /** The run's steady plateau (extension); empty when it had none or was scored before it existed. */
    public static Optional<SteadyStateReport> steadyState(RunSummary summary) {
        SteadyStateSummary s = summary.getSteadyState();
        return s == null
                ? Optional.empty()
                : Optional.of(new SteadyStateReport(
                        s.getStartS(),
                        s.getEndS(),
                        s.getPlateauInFlight(),
                        s.getBandFloor(),
                        s.getCompleted(),
                        s.getRequestThroughput(),
                        s.getOutputThroughput(),
                        s.getMetrics().stream().map(m -> stats(m, summary)).toList()));
    }

    /** Why the run has no steady plateau; empty when it has one (or was scored before it existed). */
    public static Optional<String> steadyStateAbsent(RunSummary summary) {
        return Optional.ofNullable(summary.getSteadyStateAbsent()).map(Object::toString);
    }

    /** The probe requests' figures; empty without {@code --probe-request-rate}. */
    public static Optional<ProbeReport> probes(RunSummary summary) {
        ProbeSummary p = summary.getProbes();
        return p == null
                ? Optional.empty()
                : Optional.of(new ProbeReport(
                        p.getCompleted(),
                        p.getFailed(),
                        p.getMetrics().stream().map(m -> stats(m, summary)).toList()));
    }

    private static MetricStats stats(MetricSummary m, RunSummary summary) {
        Metric metric = Metric.fromKey(m.getMetric());
        return MetricStats.of(metric, latency(m, metric != Metric.ITL || summary.getItlExact()));
    }

    private static LatencyStats latency(MetricSummary m, boolean exact) {
        return new LatencyStats(
                m.getCount(),
                m.getMeanMs(),
                m.getMedianMs(),
                m.getStdMs(),
                m.getPercentiles().stream()
                        .map(p -> new MetricStats.PercentileValue(p.getPercentile(), p.getValueMs()))
                        .toList(),
                exact);
    }
}
