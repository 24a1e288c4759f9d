package io.tokenpulse.aggregator.scoring;

import io.tokenpulse.aggregator.metrics.GoodputSlo;
import io.tokenpulse.aggregator.metrics.LatencyStats;
import io.tokenpulse.aggregator.metrics.MetricPercentiles;
import io.tokenpulse.aggregator.metrics.MetricStats;
import io.tokenpulse.aggregator.metrics.MetricsAccumulator;
import io.tokenpulse.aggregator.metrics.PercentileMetrics;
import io.tokenpulse.aggregator.metrics.PrefixCache;
import io.tokenpulse.aggregator.metrics.ProbeResult;
import io.tokenpulse.aggregator.metrics.ReasoningAccumulator;
import io.tokenpulse.aggregator.metrics.ReasoningResult;
import io.tokenpulse.aggregator.metrics.RequestValues;
import io.tokenpulse.aggregator.metrics.RunResult;
import io.tokenpulse.aggregator.records.RequestMetricsMapper;
import io.tokenpulse.schemas.avro.MetricSummary;
import io.tokenpulse.schemas.avro.ModelSummary;
import io.tokenpulse.schemas.avro.PercentileValue;
import io.tokenpulse.schemas.avro.PrefixCacheSummary;
import io.tokenpulse.schemas.avro.ProbeSummary;
import io.tokenpulse.schemas.avro.RampUpConfig;
import io.tokenpulse.schemas.avro.RampUpSummary;
import io.tokenpulse.schemas.avro.ReasoningSummary;
import io.tokenpulse.schemas.avro.RequestMetrics;
import io.tokenpulse.schemas.avro.RpsChangeAt;
import io.tokenpulse.schemas.avro.RunFinished;
import io.tokenpulse.schemas.avro.RunStarted;
import io.tokenpulse.schemas.avro.RunSummary;
import io.tokenpulse.schemas.avro.ShardClock;
import io.tokenpulse.schemas.avro.SteadyStateSummary;
import io.tokenpulse.schemas.avro.TurnSummary;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scores a run from its stored {@link RequestMetrics} records: the one path from those records to
 * a {@link RunSummary}, used by the topology's summarizer and by {@code replay} (which re-scores with
 * other options). The formulas live in {@code metrics}, and each record's values are read as stored
 * ({@link RequestMetricsMapper}); this is the plumbing around them.
 */
public final class RunScoring {
    private static final Logger LOG = LoggerFactory.getLogger(RunScoring.class);
    // vLLM's result-file date: datetime.now().strftime("%Y%m%d-%H%M%S"), local time.
    private static final DateTimeFormatter VLLM_DATE = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private RunScoring() {}

    /**
     * The options that decide what a run's score shows.
     *
     * @param selection   {@code --percentile-metrics}
     * @param percentiles {@code --metric-percentiles}
     * @param goodput     {@code --goodput}; {@link GoodputSlo#NONE} for none
     */
    public record Options(PercentileMetrics selection, MetricPercentiles percentiles, GoodputSlo goodput) {

        /**
         * The options the run was started with. The load generator validated them already; a record
         * that still carries a bad one gets vLLM's default (goodput off) and a warning rather than a
         * summary that never comes.
         */
        public static Options storedIn(String runId, RunStarted config) {
            return new Options(
                    storedSelection(runId, config), storedPercentiles(runId, config), storedGoodput(runId, config));
        }

        /** These options with the metrics the run can report ({@link PercentileMetrics#forRun}). */
        Options forRun(RunStarted config) {
            return new Options(
                    selection.forRun(config.getMaxConcurrency() != null, config.getRequestRate()),
                    percentiles,
                    goodput);
        }
    }

    /** What the per-model section shows of each model: TTFT, TPOT and ITL, their P99 (issue 13). */
    static final PercentileMetrics PER_MODEL_METRICS = PercentileMetrics.parse("ttft,tpot,itl");

    static final MetricPercentiles PER_MODEL_PERCENTILES = MetricPercentiles.parse("99");

    /** What the per-turn section shows of each turn index: TTFT, its P99 (issue 33). */
    static final PercentileMetrics PER_TURN_METRICS = PercentileMetrics.parse("ttft");

    /** The model of a record whose writer did not say (older load generators, which had no adapters). */
    static final String UNNAMED_MODEL = "(not recorded)";

    /**
     * A run's values and statistics plus its failures.
     *
     * @param result the run values and the selected metrics' statistics
     * @param errors failed requests by {@link FailureReasons#groupOf grouped reason}, sorted by it
     * @param perModel with per-model scoring: each model's own values, by model name in name order,
     *     scored by the same math as {@code result} ({@link #PER_MODEL_METRICS}, P99); else empty
     * @param reasoning the reasoning figures when a successful request thought, else empty
     * @param perTurn a multi-turn run's requests by turn index, in turn order, scored by the same math
     *     ({@link #PER_TURN_METRICS}, P99); empty when no request was a session's turn
     * @param prefixCache the prefix-cache figures when a server reported {@code cached_tokens}, else empty
     * @param steadyState the figures over the run's steady plateau, or why it has none
     * @param probes the {@code --probe-request-rate} requests' own figures; empty without probes
     */
    public record Scored(
            RunResult result,
            Map<String, Long> errors,
            Map<String, RunResult> perModel,
            Optional<ReasoningResult> reasoning,
            Map<Integer, RunResult> perTurn,
            Optional<PrefixCache> prefixCache,
            SteadyStates.Outcome steadyState,
            Optional<ProbeResult> probes) {
        public Scored {
            errors = Collections.unmodifiableSortedMap(new TreeMap<>(errors));
            perModel = Collections.unmodifiableSortedMap(new TreeMap<>(perModel));
            perTurn = Collections.unmodifiableSortedMap(new TreeMap<>(perTurn));
        }
    }

    /**
     * Scores every request of a run. {@code requests} is opened twice (first for the earliest
     * successful send, the origin of the peak buckets; then to add them), and each stream is closed
     * after use, so a store iterator behind it is released.
     *
     * @param requests               the run's resolved request metrics (epoch times), any order
     * @param scheduleStartEpochNs   the run's start: its duration counts from here
     * @param lastShardFinishEpochNs the run's end when it has no requests
     */
    public static Scored score(
            Supplier<Stream<RequestMetrics>> requests,
            long scheduleStartEpochNs,
            long lastShardFinishEpochNs,
            Options options) {
        return score(requests, scheduleStartEpochNs, lastShardFinishEpochNs, options, false);
    }

    /**
     * As {@link #score(Supplier, long, long, Options)}; with {@code perModel} each model the requests
     * named also gets its own accumulator (same origin, same duration), for the per-model section.
     */
    public static Scored score(
            Supplier<Stream<RequestMetrics>> requests,
            long scheduleStartEpochNs,
            long lastShardFinishEpochNs,
            Options options,
            boolean perModel) {
        long originNs;
        try (Stream<RequestMetrics> all = requests.get()) {
            originNs = all.filter(m -> m.getSuccess() && !m.getProbe())
                    .mapToLong(RequestMetrics::getSentEpochNs)
                    .min()
                    .orElse(scheduleStartEpochNs);
        }
        MetricsAccumulator run = new MetricsAccumulator(originNs, options.goodput());
        ReasoningAccumulator reasoning = new ReasoningAccumulator();
        Map<String, MetricsAccumulator> models = new TreeMap<>();
        Map<Integer, MetricsAccumulator> turns = new TreeMap<>();
        Map<String, Long> errors = new TreeMap<>();
        // probes are scored apart and never reach the run's figures (vllm#49611)
        MetricsAccumulator probes = new MetricsAccumulator(originNs, GoodputSlo.NONE);
        SteadyStates plateau = new SteadyStates();
        try (Stream<RequestMetrics> all = requests.get()) {
            all.forEach(m -> {
                RequestValues values = RequestMetricsMapper.values(m);
                if (m.getProbe()) {
                    probes.add(values);
                    return;
                }
                run.add(values);
                plateau.add(values);
                reasoning.add(values, RequestMetricsMapper.reasoning(m));
                if (perModel) {
                    models.computeIfAbsent(
                                    m.getModel() == null ? UNNAMED_MODEL : m.getModel(),
                                    name -> new MetricsAccumulator(originNs, GoodputSlo.NONE))
                            .add(values);
                }
                if (m.getTurnIndex() != null) {
                    turns.computeIfAbsent(m.getTurnIndex(), turn -> new MetricsAccumulator(originNs, GoodputSlo.NONE))
                            .add(values);
                }
                if (!m.getSuccess()) {
                    errors.merge(FailureReasons.groupOf(m.getError()), 1L, Long::sum);
                }
            });
        }
        long endNs = run.lastFinishedNs() == Long.MIN_VALUE ? lastShardFinishEpochNs : run.lastFinishedNs();
        // A run without requests can end the instant it starts; 1 ns keeps every rate at 0 instead of NaN.
        long durationNs = Math.max(1, endNs - scheduleStartEpochNs);
        RunResult result = RunResult.of(run, durationNs, options.selection(), options.percentiles());
        Map<String, RunResult> byModel = new TreeMap<>();
        models.forEach((name, accumulator) ->
                byModel.put(name, RunResult.of(accumulator, durationNs, PER_MODEL_METRICS, PER_MODEL_PERCENTILES)));
        Map<Integer, RunResult> byTurn = new TreeMap<>();
        turns.forEach((turn, accumulator) ->
                byTurn.put(turn, RunResult.of(accumulator, durationNs, PER_TURN_METRICS, PER_MODEL_PERCENTILES)));
        SteadyStates.Outcome steady = plateau.score(requests, options);
        return new Scored(
                result,
                errors,
                byModel,
                reasoning.result(options.percentiles()),
                byTurn,
                PrefixCache.of(run),
                steady,
                probes.completed() + probes.failed() == 0
                        ? Optional.empty()
                        : Optional.of(ProbeResult.of(probes, options.percentiles())));
    }

    /** The run's summary record: its shards' configuration and counts, and {@link #score} of its requests. */
    public static RunSummary summarize(
            String runId, RunShards shards, Supplier<Stream<RequestMetrics>> requests, Options options) {
        RunStarted config = shards.config();
        // LoRA runs get the per-model section; others stay as vLLM's report
        Scored scored = score(
                requests,
                shards.scheduleStartEpochNs(),
                shards.lastShardFinishEpochNs(),
                options.forRun(config),
                !config.getLoraModules().isEmpty());
        RunResult result = scored.result();
        return RunSummary.newBuilder()
                .setRunId(runId)
                .setDate(VLLM_DATE.format(
                        Instant.ofEpochSecond(0, shards.scheduleStartEpochNs()).atZone(ZoneId.systemDefault())))
                .setBackend(config.getBackend())
                .setModelId(config.getModelId())
                .setTokenizerId(config.getTokenizerId())
                // probes are requests the shards started, but not prompts of the run
                .setNumPrompts(Math.toIntExact(shards.requestsStarted()
                        - scored.probes().map(p -> p.completed() + p.failed()).orElse(0L)))
                .setRequestRate(config.getRequestRate())
                .setBurstiness(config.getBurstiness())
                .setMaxConcurrency(config.getMaxConcurrency())
                .setRampUp(rampUp(config.getRampUp(), shards.scheduleStartEpochNs()))
                .setDurationNs(result.durationNs())
                .setCompleted(result.completed())
                .setFailed(result.failed())
                .setTotalInputTokens(result.totalInputTokens())
                .setTotalOutputTokens(result.totalOutputTokens())
                .setRequestThroughput(result.requestThroughput())
                .setRequestGoodput(
                        result.requestGoodput().isPresent()
                                ? result.requestGoodput().getAsDouble()
                                : null)
                .setOutputThroughput(result.outputThroughput())
                .setTotalTokenThroughput(result.totalTokenThroughput())
                .setMaxOutputTokensPerS(result.maxOutputTokensPerS())
                .setMaxConcurrentRequests(result.maxConcurrentRequests())
                .setRtfx(result.rtfx())
                .setItlExact(result.itlExact())
                .setMetrics(result.metrics().stream().map(RunScoring::summary).toList())
                .setErrors(scored.errors())
                .setShards(shards.started().size())
                .setShardCount(shards.shardCount())
                .setMissingShards(shards.missingShards())
                .setShardClocks(shardClocks(shards))
                .setRecordsNotDelivered(shards.finished().stream()
                        .mapToLong(RunFinished::getRecordsNotDelivered)
                        .sum())
                .setRecordsNotDeliveredByReason(shards.finished().stream()
                        .flatMap(f -> f.getRecordsNotDeliveredByReason().entrySet().stream())
                        .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, Long::sum, TreeMap::new)))
                .setPerModel(scored.perModel().entrySet().stream()
                        .map(e -> ModelSummary.newBuilder()
                                .setModel(e.getKey())
                                .setCompleted(e.getValue().completed())
                                .setFailed(e.getValue().failed())
                                .setMetrics(e.getValue().metrics().stream()
                                        .map(RunScoring::summary)
                                        .toList())
                                .build())
                        .toList())
                .setPerTurn(scored.perTurn().entrySet().stream()
                        .map(e -> TurnSummary.newBuilder()
                                .setTurnIndex(e.getKey())
                                .setCompleted(e.getValue().completed())
                                .setFailed(e.getValue().failed())
                                .setMeanInputTokens(
                                        e.getValue().completed() == 0
                                                ? 0
                                                : (double) e.getValue().totalInputTokens()
                                                        / e.getValue().completed())
                                .setTtft(summary(e.getValue().metrics().get(0)))
                                .build())
                        .toList())
                .setReasoning(scored.reasoning()
                        .map(r -> ReasoningSummary.newBuilder()
                                .setRequests(r.requests())
                                .setReasoningTokens(r.reasoningTokens())
                                .setAnswerTokens(r.answerTokens())
                                .setTtfo(summary(ReasoningResult.TTFO_KEY, r.ttfo()))
                                .build())
                        .orElse(null))
                .setInterrupted(shards.finished().stream().anyMatch(RunFinished::getInterrupted))
                .setPrefixCache(scored.prefixCache()
                        .map(c -> PrefixCacheSummary.newBuilder()
                                .setRequests(c.requests())
                                .setCachedTokens(c.cachedTokens())
                                .setPromptTokens(c.promptTokens())
                                .setHitRate(c.hitRate())
                                .build())
                        .orElse(null))
                .setSteadyState(scored.steadyState()
                        .result()
                        .map(r -> SteadyStateSummary.newBuilder()
                                .setStartS((r.window().startNs() - shards.scheduleStartEpochNs()) / 1e9)
                                .setEndS((r.window().endNs() - shards.scheduleStartEpochNs()) / 1e9)
                                .setPlateauInFlight(r.window().plateau())
                                .setBandFloor(r.window().bandFloor())
                                .setCompleted(r.completed())
                                .setOutputTokens(r.outputTokens())
                                .setRequestThroughput(r.requestThroughput())
                                .setOutputThroughput(r.outputThroughput())
                                .setMetrics(r.metrics().stream()
                                        .map(RunScoring::summary)
                                        .toList())
                                .build())
                        .orElse(null))
                .setSteadyStateAbsent(scored.steadyState().absentReason().orElse(null))
                .setProbes(scored.probes()
                        .map(p -> ProbeSummary.newBuilder()
                                .setCompleted(p.completed())
                                .setFailed(p.failed())
                                .setMetrics(p.metrics().stream()
                                        .map(RunScoring::summary)
                                        .toList())
                                .setP99E2elMs(p.vllmE2el()
                                        .map(ProbeResult.VllmE2el::p99Ms)
                                        .orElse(null))
                                .setMaxE2elMs(p.vllmE2el()
                                        .map(ProbeResult.VllmE2el::maxMs)
                                        .orElse(null))
                                .build())
                        .orElse(null))
                .build();
    }

    /**
     * The summary of a run that cannot be completed (records lost, its aggregator gone, a shard that
     * never finished): its stored requests scored as {@link #summarize} scores them, marked
     * {@code incomplete} with what is missing. {@code num_prompts} counts the requests the finished
     * shards announced, or those stored when there are more.
     *
     * @param stored  the run's shard records as stored ({@link RunShards#asStored})
     * @param missing what the run lacks, e.g. {@code "12 of 400 request metrics"}
     */
    public static RunSummary summarizeIncomplete(
            String runId, RunShards stored, List<RequestMetrics> requests, Options options, String missing) {
        RunSummary summary = summarize(runId, stored, requests::stream, options);
        long prompts = requests.stream().filter(r -> !r.getProbe()).count();
        summary.setNumPrompts(Math.toIntExact(Math.max(summary.getNumPrompts(), prompts)));
        summary.setIncomplete(missing);
        return summary;
    }

    /** The ramp-up as the summary keeps it, its steps placed on the run's clock; null without one. */
    private static RampUpSummary rampUp(RampUpConfig rampUp, long scheduleStartEpochNs) {
        return rampUp == null
                ? null
                : RampUpSummary.newBuilder()
                        .setStrategy(rampUp.getStrategy())
                        .setStartRps(rampUp.getStartRps())
                        .setEndRps(rampUp.getEndRps())
                        .setRpsChanges(rampUp.getRpsChanges().stream()
                                .map(c -> new RpsChangeAt(c.getRps(), scheduleStartEpochNs + c.getOffsetNs()))
                                .toList())
                        .build();
    }

    /**
     * Each shard's clock against the broker's, as its RunStarted carries it (measured at the start
     * barrier), in shard order; only for a run of several shards, and only those that measured it.
     */
    private static List<ShardClock> shardClocks(RunShards shards) {
        if (shards.shardCount() < 2) {
            return List.of();
        }
        return shards.startedByShard().entrySet().stream()
                .filter(e ->
                        e.getValue().getClockOffsetMs() != null && e.getValue().getClockOffsetUncertaintyMs() != null)
                .map(e -> new ShardClock(
                        e.getKey(),
                        e.getValue().getClockOffsetMs(),
                        e.getValue().getClockOffsetUncertaintyMs()))
                .toList();
    }

    private static MetricSummary summary(MetricStats stats) {
        return summary(stats.metric().key(), stats.latency());
    }

    private static MetricSummary summary(String key, LatencyStats stats) {
        return MetricSummary.newBuilder()
                .setMetric(key)
                .setCount(stats.count())
                .setMeanMs(stats.meanMs())
                .setMedianMs(stats.medianMs())
                .setStdMs(stats.stdMs())
                .setPercentiles(stats.percentiles().stream()
                        .map(p -> new PercentileValue(p.percentile(), p.valueMs()))
                        .toList())
                .build();
    }

    private static PercentileMetrics storedSelection(String runId, RunStarted config) {
        try {
            return config.getSelectedMetrics().isEmpty()
                    ? PercentileMetrics.parse(config.getPercentileMetrics()) // a record older than the typed field
                    : PercentileMetrics.ofKeys(config.getSelectedMetrics());
        } catch (IllegalArgumentException e) {
            LOG.warn("run {}: {}; using {}", runId, e.getMessage(), PercentileMetrics.DEFAULT);
            return PercentileMetrics.DEFAULT;
        }
    }

    private static MetricPercentiles storedPercentiles(String runId, RunStarted config) {
        try {
            return config.getSelectedPercentiles().isEmpty()
                    ? MetricPercentiles.parse(config.getMetricPercentiles())
                    : new MetricPercentiles(config.getSelectedPercentiles());
        } catch (IllegalArgumentException e) {
            LOG.warn("run {}: {}; using {}", runId, e.getMessage(), MetricPercentiles.DEFAULT);
            return MetricPercentiles.DEFAULT;
        }
    }

    private static GoodputSlo storedGoodput(String runId, RunStarted config) {
        if (config.getGoodputSloMs().isEmpty()
                && (config.getGoodput() == null || config.getGoodput().isBlank())) {
            return GoodputSlo.NONE;
        }
        try {
            if (!config.getGoodputSloMs().isEmpty()) {
                return GoodputSlo.ofKeys(config.getGoodputSloMs());
            }
            return GoodputSlo.parse(List.of(config.getGoodput())); // a record older than the typed field
        } catch (IllegalArgumentException e) {
            LOG.warn("run {}: {}; goodput off", runId, e.getMessage());
            return GoodputSlo.NONE;
        }
    }
}
