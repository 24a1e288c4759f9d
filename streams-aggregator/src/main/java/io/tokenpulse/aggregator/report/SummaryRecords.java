package io.tokenpulse.aggregator.report;

import io.tokenpulse.aggregator.metrics.LatencyStats;
import io.tokenpulse.aggregator.metrics.Metric;
import io.tokenpulse.aggregator.metrics.MetricStats;
import io.tokenpulse.aggregator.metrics.MetricsAccumulator;
import io.tokenpulse.aggregator.metrics.PrefixCache;
import io.tokenpulse.aggregator.metrics.ProbeResult;
import io.tokenpulse.aggregator.metrics.ReasoningResult;
import io.tokenpulse.aggregator.metrics.RunResult;
import io.tokenpulse.schemas.avro.MetricSummary;
import io.tokenpulse.schemas.avro.PrefixCacheSummary;
import io.tokenpulse.schemas.avro.ProbeSummary;
import io.tokenpulse.schemas.avro.RampUpSummary;
import io.tokenpulse.schemas.avro.ReasoningSummary;
import io.tokenpulse.schemas.avro.RequestMetrics;
import io.tokenpulse.schemas.avro.RunSummary;
import io.tokenpulse.schemas.avro.SteadyStateSummary;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
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
                summary.getMaxConcurrency() == null ? OptionalInt.empty() : OptionalInt.of(summary.getMaxConcurrency()),
                Optional.ofNullable(summary.getRampUp())
                        .map(r -> RampUpKeys.of(r.getStrategy(), r.getStartRps(), r.getEndRps())));
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
                summary.getRtfx(),
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

    /** A multi-turn run's per-turn section, in turn order; empty for other runs. */
    public static List<TurnResult> perTurn(RunSummary summary) {
        return summary.getPerTurn().stream()
                .map(t -> new TurnResult(
                        t.getTurnIndex(),
                        t.getCompleted(),
                        t.getFailed(),
                        t.getMeanInputTokens(),
                        t.getTtft().getMeanMs(),
                        t.getTtft().getMedianMs(),
                        t.getTtft().getPercentiles().isEmpty()
                                ? 0
                                : t.getTtft().getPercentiles().get(0).getValueMs()))
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

    /**
     * A run of several shards: how many took part, which never finished, their clocks against the
     * broker's; {@link ShardReport#ONE} for one (a summary older than {@code shard_count} counts those
     * that reported).
     */
    public static ShardReport shards(RunSummary summary) {
        int shardCount = summary.getShardCount() == null ? summary.getShards() : summary.getShardCount();
        return ShardReport.of(
                summary.getShards(),
                shardCount,
                summary.getMissingShards(),
                summary.getShardClocks().stream()
                        .map(c -> new ShardReport.Clock(c.getShard(), c.getOffsetMs(), c.getUncertaintyMs()))
                        .toList());
    }

    /**
     * The run's result file (vLLM's keys) without the client's CPU, with the per-request lists when
     * {@code detailed}: what --save-result writes, and what {@code compare} and {@code report} read
     * for a stored run.
     */
    public static ResultJson resultJson(
            RunSummary summary,
            List<RequestMetrics> requests,
            Map<String, String> metadata,
            String label,
            boolean detailed) {
        ResultJson json = ResultJson.of(
                        config(summary), result(summary), metadata, delivery(summary), completeness(summary))
                .withLabel(label)
                .withRunId(summary.getRunId().toString())
                .withShardReport(shards(summary))
                .withPerModel(perModel(summary))
                .withTtftByTurn(perTurn(summary))
                .withReasoning(reasoning(summary))
                .withPrefixCache(prefixCache(summary)
                        .map(c -> new ResultJson.PrefixCacheKeys(c.cachedTokens(), c.hitRate()))
                        .orElse(null))
                .withSteadyState(steadyState(summary).orElse(null))
                .withSteadyStateAbsent(steadyStateAbsent(summary).orElse(null))
                .withProbes(probes(summary).orElse(null))
                .withVllmProbes(probes(summary).flatMap(ProbeReport::vllmKeys).orElse(null))
                .withRpsChangeEvents(rpsChangeEvents(summary.getRampUp()));
        // vLLM's per-request lists hold the run's prompts; probes have their own section
        List<RequestMetrics> prompts =
                requests.stream().filter(r -> !r.getProbe()).toList();
        return detailed
                ? json.withDetails(prompts.stream().map(SummaryRecords::detail).toList())
                        .withSessionTurns(sessionTurns(prompts))
                : json;
    }

    /** vLLM's {@code rps_change_events} of a ramp-up run; null for other runs. */
    private static List<RampUpKeys.RpsChangeEvent> rpsChangeEvents(RampUpSummary rampUp) {
        return rampUp == null
                ? null
                : rampUp.getRpsChanges().stream()
                        .map(c -> RampUpKeys.RpsChangeEvent.at(c.getRps(), c.getEpochNs(), ZoneId.systemDefault()))
                        .toList();
    }

    /** One request's {@code --save-detailed} entry; vLLM counts 0 output tokens for a failure. */
    public static RequestDetail detail(RequestMetrics request) {
        return new RequestDetail(
                request.getPromptLen(),
                request.getSuccess() ? request.getOutputTokens() : 0,
                request.getTtftNs() == null ? 0 : request.getTtftNs() / NS_PER_SECOND,
                request.getTtfoNs() == null ? 0 : request.getTtfoNs() / NS_PER_SECOND,
                request.getItlNs().stream().map(ns -> ns / NS_PER_SECOND).toList(),
                request.getSentEpochNs() / NS_PER_SECOND,
                request.getGeneratedText() == null ? "" : request.getGeneratedText(),
                request.getError());
    }

    /**
     * A multi-turn run's {@code session_turns} entries, one per request in the order given; null when no
     * request was a session's turn, so other runs' detailed files stay as they were.
     */
    public static List<SessionTurnDetail> sessionTurns(List<RequestMetrics> requests) {
        if (requests.stream().noneMatch(r -> r.getTurnIndex() != null)) {
            return null;
        }
        return requests.stream()
                .map(r -> new SessionTurnDetail(
                        r.getSessionId() == null ? "" : r.getSessionId(),
                        r.getTurnIndex() == null ? 0 : r.getTurnIndex(),
                        r.getSentEpochNs() / NS_PER_SECOND,
                        r.getFinishedEpochNs() / NS_PER_SECOND))
                .toList();
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
                        p.getMetrics().stream().map(m -> stats(m, summary)).toList(),
                        vllmProbeE2el(p)));
    }

    private static Optional<ProbeResult.VllmE2el> vllmProbeE2el(ProbeSummary p) {
        if (p.getP99E2elMs() == null || p.getMaxE2elMs() == null) {
            return Optional.empty();
        }
        double median = p.getMetrics().stream()
                .filter(m -> Metric.fromKey(m.getMetric()) == Metric.E2EL)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("bug: a probe summary without E2EL"))
                .getMedianMs();
        return Optional.of(new ProbeResult.VllmE2el(median, p.getP99E2elMs(), p.getMaxE2elMs()));
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
