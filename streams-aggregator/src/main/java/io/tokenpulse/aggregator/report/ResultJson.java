package io.tokenpulse.aggregator.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import io.soabase.recordbuilder.core.RecordBuilder;
import io.tokenpulse.aggregator.metrics.LatencyStats;
import io.tokenpulse.aggregator.metrics.MetricStats;
import io.tokenpulse.aggregator.metrics.ReasoningResult;
import io.tokenpulse.aggregator.metrics.RunResult;
import io.tokenpulse.schemas.python.PythonFloat;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * vLLM's result file ({@code --save-result}): the component names, in snake case, are the keys, in
 * vLLM's order. Two parts have keys that depend on the run and are written in place: the
 * {@code --metadata} pairs (after {@code num_prompts}, where vLLM puts them) and the per-metric keys
 * {@code mean_/median_/std_/p{P}_<metric>_ms} (last). The {@code --save-detailed} lists are null and
 * left out unless {@link #withDetails} was called ({@code ttfos} only for a reasoning run; {@code session_turns}
 * only for a multi-turn run, through {@code withSessionTurns}). Beyond vLLM's mid-2025 keys it writes
 * {@code failed}, {@code max_output_tokens_per_s}, {@code max_concurrent_requests} and {@code rtfx} (0.0
 * without audio) as later vLLM versions do, and {@code itl_exact}; {@code bench} adds the {@link ClientCpu} and {@link ClientTiming}
 * keys (left out when null, as in {@code replay}), {@code label} (current vLLM's {@code --label}, after {@code backend};
 * left out without one, so files stay as mid-2025 benchmark_serving.py wrote them) and {@code per_model}
 * (a LoRA run's models; left out when empty), {@code ttft_by_turn} (a multi-turn run's {@link TurnResult}s; left
 * out when empty), {@code shards} and friends (a run of several shards, {@link ShardReport}; left out for
 * one), {@code run_id} (the run's id, which {@code replay}, {@code chart}
 * and {@code report} take; left out when null). Immutable: the generated {@code ResultJsonBuilder.With}
 * gives the copies with one key changed ({@code withLabel}, {@code withPerModel}, {@code
 * withClientCpu}, ...), so a new key is added in one place, the components.
 *
 * @see "docs/metrics.md, The console block and the result file"
 */
@RecordBuilder
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ResultJson(
        String date,
        @JsonInclude(JsonInclude.Include.NON_NULL) String endpointType,
        String backend,
        @JsonInclude(JsonInclude.Include.NON_NULL) String label,
        String modelId,
        String tokenizerId,
        int numPrompts,

        @JsonUnwrapped @JsonSerialize(using = PythonJson.InlineEntries.class)
        Map<String, String> metadata,

        @JsonSerialize(using = PythonJson.RequestRateText.class)
        double requestRate,

        double burstiness,
        Integer maxConcurrency,
        @JsonUnwrapped RampUpKeys rampUp,
        double duration,
        long completed,
        long failed,
        long totalInputTokens,
        long totalOutputTokens,
        double requestThroughput,
        Double requestGoodput,
        double outputThroughput,
        double totalTokenThroughput,
        @JsonInclude(JsonInclude.Include.NON_NULL) List<Integer> inputLens,
        @JsonInclude(JsonInclude.Include.NON_NULL) List<Integer> outputLens,
        @JsonInclude(JsonInclude.Include.NON_NULL) List<Double> ttfts,
        @JsonInclude(JsonInclude.Include.NON_NULL) List<Double> ttfos,
        @JsonInclude(JsonInclude.Include.NON_NULL) List<List<Double>> itls,
        @JsonInclude(JsonInclude.Include.NON_NULL) List<Double> startTimes,
        @JsonInclude(JsonInclude.Include.NON_NULL) List<String> generatedTexts,
        @JsonInclude(JsonInclude.Include.NON_NULL) List<String> errors,
        @JsonInclude(JsonInclude.Include.NON_NULL) List<SessionTurnDetail> sessionTurns,
        double maxOutputTokensPerS,
        long maxConcurrentRequests,
        double rtfx,
        boolean itlExact,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<ModelResult> perModel,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<TurnResult> ttftByTurn,
        @JsonInclude(JsonInclude.Include.NON_NULL) String runId,
        @JsonUnwrapped Delivery delivery,
        @JsonUnwrapped ClientCpu clientCpu,
        @JsonUnwrapped ClientTiming clientTiming,
        @JsonUnwrapped Completeness completeness,
        @JsonUnwrapped ShardReport shardReport,
        @JsonUnwrapped Reasoning reasoning,
        @JsonUnwrapped PrefixCacheKeys prefixCache,
        @JsonInclude(JsonInclude.Include.NON_NULL) SteadyStateReport steadyState,
        @JsonInclude(JsonInclude.Include.NON_NULL) String steadyStateAbsent,
        @JsonInclude(JsonInclude.Include.NON_NULL) ProbeReport probes,
        @JsonUnwrapped ProbeReport.VllmKeys vllmProbes,
        @JsonInclude(JsonInclude.Include.NON_NULL) List<RampUpKeys.RpsChangeEvent> rpsChangeEvents,

        @JsonUnwrapped @JsonSerialize(using = PythonJson.InlineEntries.class)
        Map<String, Double> metricValues)
        implements ResultJsonBuilder.With {

    /**
     * Records the load generators could not deliver to Kafka, by reason: TokenPulse's own keys, left
     * out when nothing was lost (the figures then miss nothing).
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Delivery(
            @JsonInclude(JsonInclude.Include.NON_DEFAULT) long recordsNotDelivered,
            @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Long> recordsNotDeliveredByReason) {
        public static final Delivery COMPLETE = new Delivery(0, Map.of());

        public Delivery {
            recordsNotDeliveredByReason =
                    java.util.Collections.unmodifiableMap(new LinkedHashMap<>(recordsNotDeliveredByReason));
        }
    }

    /**
     * Whether the figures cover the whole run: TokenPulse's own keys, left out for a whole run.
     *
     * @param interrupted the run was stopped (Ctrl-C, SIGTERM): the figures cover what was sent before
     * @param incomplete what the figures lack (e.g. {@code "12 of 400 request metrics"}) when the run
     *     was scored without its summary; null when nothing is missing
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Completeness(
            @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean interrupted,
            @JsonInclude(JsonInclude.Include.NON_NULL) String incomplete) {
        public static final Completeness WHOLE = new Completeness(false, null);
    }

    /**
     * A reasoning run's token split (extension; AIPerf reports the same split), left out for other
     * runs; its time to first output token goes with the metric keys ({@code mean_ttfo_ms}, ...).
     *
     * @param reasoningRequests    successful requests that thought
     * @param totalReasoningTokens output tokens that were thinking
     * @param totalAnswerTokens    {@code total_output_tokens - total_reasoning_tokens}
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Reasoning(long reasoningRequests, long totalReasoningTokens, long totalAnswerTokens) {}

    /**
     * The prefix-cache figures (extension, vllm#46938), left out unless a server reported
     * {@code cached_tokens}.
     *
     * @param totalCachedTokens  prompt tokens served from the prefix cache, over the requests that said
     * @param prefixCacheHitRate {@code total_cached_tokens} / those requests' prompt tokens, 0..1
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record PrefixCacheKeys(long totalCachedTokens, double prefixCacheHitRate) {}

    /** Keys the record writes itself (the unwrapped records' included), which --metadata may not reuse. */
    private static final Set<String> FIXED_KEYS = Stream.of(
                    ResultJson.class.getRecordComponents(),
                    Delivery.class.getRecordComponents(),
                    ClientCpu.class.getRecordComponents(),
                    ClientTiming.class.getRecordComponents(),
                    Completeness.class.getRecordComponents(),
                    ShardReport.class.getRecordComponents(),
                    Reasoning.class.getRecordComponents(),
                    PrefixCacheKeys.class.getRecordComponents())
            .flatMap(Arrays::stream)
            .map(c -> new PropertyNamingStrategies.SnakeCaseStrategy().translate(c.getName()))
            .collect(Collectors.toUnmodifiableSet());

    public ResultJson {
        metadata = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
        metricValues = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(metricValues));
        perModel = perModel == null ? List.of() : List.copyOf(perModel);
        ttftByTurn = ttftByTurn == null ? List.of() : List.copyOf(ttftByTurn);
        for (String key : metadata.keySet()) {
            if (FIXED_KEYS.contains(key) || metricValues.containsKey(key)) {
                throw new IllegalArgumentException(
                        "--metadata key '" + key + "' would overwrite a result key: rename it");
            }
        }
    }

    /** The result of one run without the per-request lists, nothing undelivered. */
    public static ResultJson of(RunConfig config, RunResult result, Map<String, String> metadata) {
        return of(config, result, metadata, Delivery.COMPLETE);
    }

    /** The result of one run without the per-request lists. */
    public static ResultJson of(RunConfig config, RunResult result, Map<String, String> metadata, Delivery delivery) {
        return of(config, result, metadata, delivery, Completeness.WHOLE);
    }

    /** The result of one run without the per-request lists, marked when it does not cover the whole run. */
    public static ResultJson of(
            RunConfig config,
            RunResult result,
            Map<String, String> metadata,
            Delivery delivery,
            Completeness completeness) {
        return ResultJsonBuilder.builder()
                .date(config.date())
                .backend(config.backend())
                .modelId(config.modelId())
                .tokenizerId(config.tokenizerId())
                .numPrompts(config.numPrompts())
                .metadata(metadata)
                .requestRate(config.requestRate())
                .burstiness(config.burstiness())
                .maxConcurrency(
                        config.maxConcurrency().isPresent()
                                ? config.maxConcurrency().getAsInt()
                                : null)
                .rampUp(config.rampUp().orElse(null))
                .duration(result.durationSeconds())
                .completed(result.completed())
                .failed(result.failed())
                .totalInputTokens(result.totalInputTokens())
                .totalOutputTokens(result.totalOutputTokens())
                .requestThroughput(result.requestThroughput())
                .requestGoodput(
                        result.requestGoodput().isPresent()
                                ? result.requestGoodput().getAsDouble()
                                : null)
                .outputThroughput(result.outputThroughput())
                .totalTokenThroughput(result.totalTokenThroughput())
                .maxOutputTokensPerS(result.maxOutputTokensPerS())
                .maxConcurrentRequests(result.maxConcurrentRequests())
                .rtfx(result.rtfx())
                .itlExact(result.itlExact())
                .delivery(delivery)
                .completeness(completeness)
                .shardReport(ShardReport.ONE)
                // a pooling run reports E2EL alone, as vLLM does (PoolingBlock)
                .metricValues(metricValues(
                        PoolingBlock.isPooling(config) ? PoolingBlock.reported(result.metrics()) : result.metrics()))
                .build();
    }

    /** vLLM's per-metric keys {@code mean_/median_/std_/p{P}_<metric>_ms}, in the metrics' order. */
    static Map<String, Double> metricValues(List<MetricStats> metrics) {
        Map<String, Double> values = new LinkedHashMap<>();
        for (MetricStats stats : metrics) {
            putStats(values, stats.metric().key(), stats.latency());
        }
        return values;
    }

    private static void putStats(Map<String, Double> values, String key, LatencyStats stats) {
        values.put("mean_" + key + "_ms", stats.meanMs());
        values.put("median_" + key + "_ms", stats.medianMs());
        values.put("std_" + key + "_ms", stats.stdMs());
        for (MetricStats.PercentileValue p : stats.percentiles()) {
            values.put("p" + PythonFloat.intOrRepr(p.percentile()) + "_" + key + "_ms", p.valueMs());
        }
    }

    /**
     * This result with a reasoning run's keys: its token split, and its time to first output token as
     * metric keys ({@code mean_ttfo_ms}, ...) after the selected metrics'; unchanged for other runs.
     */
    public ResultJson withReasoning(Optional<ReasoningResult> result) {
        if (result.isEmpty()) {
            return this;
        }
        ReasoningResult r = result.get();
        Map<String, Double> values = new LinkedHashMap<>(metricValues);
        putStats(values, ReasoningResult.TTFO_KEY, r.ttfo());
        return withReasoning(new Reasoning(r.requests(), r.reasoningTokens(), r.answerTokens()))
                .withMetricValues(values);
    }

    /**
     * This result with the {@code --save-detailed} lists, one entry per request in request order; a
     * reasoning run ({@link #withReasoning} called first with its figures) adds {@code ttfos} after
     * vLLM's {@code ttfts}: each request's time to first output token in seconds, 0 when no answer
     * text arrived, as {@code ttfts} has 0 for a request without a first token.
     */
    public ResultJson withDetails(List<RequestDetail> requests) {
        return with(b -> b.inputLens(
                        requests.stream().map(RequestDetail::inputLen).toList())
                .outputLens(requests.stream().map(RequestDetail::outputLen).toList())
                .ttfts(requests.stream().map(RequestDetail::ttftS).toList())
                .ttfos(
                        reasoning == null
                                ? null
                                : requests.stream().map(RequestDetail::ttfoS).toList())
                .itls(requests.stream().map(RequestDetail::itlS).toList())
                .startTimes(requests.stream().map(RequestDetail::startTimeS).toList())
                .generatedTexts(
                        requests.stream().map(RequestDetail::generatedText).toList())
                .errors(requests.stream().map(RequestDetail::error).toList()));
    }

    /**
     * This result as the chosen vLLM writes it: current {@code vllm bench serve} writes the backend a
     * second time as {@code endpoint_type} ("for backward compatibility") and, among the detailed lists,
     * {@code start_times}; mid-2025's {@code benchmark_serving.py} writes neither.
     */
    public ResultJson inLayout(ConsoleReport.Layout layout) {
        return layout == ConsoleReport.Layout.CURRENT ? withEndpointType(backend) : withStartTimes(null);
    }

    /** This result with the server section's keys ({@code server_*}, from bench's scrapes) after the metric keys. */
    public ResultJson withServerMetrics(Map<String, Double> server) {
        Map<String, Double> values = new LinkedHashMap<>(metricValues);
        values.putAll(server);
        return withMetricValues(values);
    }

    /**
     * Parses {@code --metadata KEY=VALUE ...} into ordered pairs; key and value are trimmed, the value is
     * everything after the first '=' (vLLM drops text after a second '='), and a later key wins.
     */
    public static Map<String, String> parseMetadata(List<String> keyValues) {
        Map<String, String> pairs = new LinkedHashMap<>();
        for (String item : keyValues) {
            int eq = item.indexOf('=');
            if (eq <= 0 || item.substring(0, eq).isBlank()) {
                throw new IllegalArgumentException(
                        "bad --metadata '" + item + "': write KEY=VALUE, e.g. version=0.3.3");
            }
            pairs.put(item.substring(0, eq).trim(), item.substring(eq + 1).trim());
        }
        return pairs;
    }

    /** The object as {@code json.dump} writes it: one line, no trailing newline. */
    public String toJson() {
        try {
            return PythonJson.WRITER.writeValueAsString(this);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a result record always serializes", e);
        }
    }
}
