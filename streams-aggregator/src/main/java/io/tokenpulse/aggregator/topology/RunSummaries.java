package io.tokenpulse.aggregator.topology;

import io.tokenpulse.aggregator.metrics.GoodputSlo;
import io.tokenpulse.aggregator.metrics.MetricPercentiles;
import io.tokenpulse.aggregator.metrics.MetricStats;
import io.tokenpulse.aggregator.metrics.MetricsAccumulator;
import io.tokenpulse.aggregator.metrics.PercentileMetrics;
import io.tokenpulse.aggregator.metrics.RequestValues;
import io.tokenpulse.aggregator.metrics.RunResult;
import io.tokenpulse.schemas.avro.MetricSummary;
import io.tokenpulse.schemas.avro.PercentileValue;
import io.tokenpulse.schemas.avro.RequestMetrics;
import io.tokenpulse.schemas.avro.RunEvent;
import io.tokenpulse.schemas.avro.RunFinished;
import io.tokenpulse.schemas.avro.RunStarted;
import io.tokenpulse.schemas.avro.RunSummary;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Builds a run's {@link RunSummary} from its shard records and its stored request metrics. */
final class RunSummaries {
    private static final Logger LOG = LoggerFactory.getLogger(RunSummaries.class);
    // vLLM's result-file date: datetime.now().strftime("%Y%m%d-%H%M%S"), local time.
    private static final DateTimeFormatter VLLM_DATE = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private RunSummaries() {
    }

    /** Every shard's RunStarted and RunFinished of one run, once all {@code shard_count} are in. */
    record ShardRecords(List<RunStarted> started, List<RunFinished> finished) {
        static Optional<ShardRecords> ifComplete(List<RunEvent> events) {
            if (events.isEmpty()) {
                return Optional.empty();
            }
            int shardCount = events.get(0).getShardCount();
            RunStarted[] started = new RunStarted[shardCount];
            RunFinished[] finished = new RunFinished[shardCount];
            for (RunEvent e : events) {
                if (e.getShardIndex() < 0 || e.getShardIndex() >= shardCount) {
                    LOG.warn("run {}: shard {} outside 0..{}; ignored", e.getRunId(), e.getShardIndex(), shardCount - 1);
                } else if (e.getEvent() instanceof RunStarted s) {
                    started[e.getShardIndex()] = s;
                } else if (e.getEvent() instanceof RunFinished f) {
                    finished[e.getShardIndex()] = f;
                }
            }
            for (int shard = 0; shard < shardCount; shard++) {
                if (started[shard] == null || finished[shard] == null) {
                    return Optional.empty();
                }
            }
            return Optional.of(new ShardRecords(List.of(started), List.of(finished)));
        }

        long requestsStarted() {
            return finished.stream().mapToLong(RunFinished::getRequestsStarted).sum();
        }

        long scheduleStartEpochNs() {
            return started.stream().mapToLong(RunStarted::getScheduleStartEpochNs).min().orElseThrow();
        }

        long lastShardFinishEpochNs() {
            return finished.stream().mapToLong(RunFinished::getFinishedEpochNs).max().orElseThrow();
        }

        /** Every shard carries the whole configuration; shard 0's is taken. */
        RunStarted config() {
            return started.get(0);
        }
    }

    /**
     * Scans the run's requests twice (first for the earliest successful send, the origin of the
     * peak buckets; then to add them), reporting each scanned key to {@code scanned} for deletion.
     */
    static RunSummary summarize(String runId, ShardRecords shards,
                                Supplier<KeyValueIterator<String, RequestMetrics>> requests,
                                Consumer<String> scanned) {
        RunStarted config = shards.config();
        long originNs = earliestSuccessfulSend(requests).orElse(shards.scheduleStartEpochNs());
        MetricsAccumulator run = new MetricsAccumulator(originNs, goodput(runId, config));
        Map<String, Long> errors = new TreeMap<>();
        try (KeyValueIterator<String, RequestMetrics> it = requests.get()) {
            while (it.hasNext()) {
                var kv = it.next();
                scanned.accept(kv.key);
                run.add(RequestValues.of(RequestRecords.timing(kv.value)));
                if (!kv.value.getSuccess()) {
                    errors.merge(kv.value.getError(), 1L, Long::sum);
                }
            }
        }
        long endNs = run.lastFinishedNs() == Long.MIN_VALUE ? shards.lastShardFinishEpochNs() : run.lastFinishedNs();
        // A run without requests can end the instant it starts; 1 ns keeps every rate at 0 instead of NaN.
        long durationNs = Math.max(1, endNs - shards.scheduleStartEpochNs());
        RunResult result = RunResult.of(run, durationNs, selection(runId, config), percentiles(runId, config));
        return RunSummary.newBuilder()
                .setRunId(runId)
                .setDate(VLLM_DATE.format(Instant.ofEpochSecond(0, shards.scheduleStartEpochNs())
                        .atZone(ZoneId.systemDefault())))
                .setBackend(config.getBackend())
                .setModelId(config.getModelId())
                .setTokenizerId(config.getTokenizerId())
                .setNumPrompts(Math.toIntExact(shards.requestsStarted()))
                .setRequestRate(config.getRequestRate())
                .setBurstiness(config.getBurstiness())
                .setMaxConcurrency(config.getMaxConcurrency())
                .setDurationNs(result.durationNs())
                .setCompleted(result.completed())
                .setFailed(result.failed())
                .setTotalInputTokens(result.totalInputTokens())
                .setTotalOutputTokens(result.totalOutputTokens())
                .setRequestThroughput(result.requestThroughput())
                .setRequestGoodput(result.requestGoodput().isPresent() ? result.requestGoodput().getAsDouble() : null)
                .setOutputThroughput(result.outputThroughput())
                .setTotalTokenThroughput(result.totalTokenThroughput())
                .setMaxOutputTokensPerS(result.maxOutputTokensPerS())
                .setMaxConcurrentRequests(result.maxConcurrentRequests())
                .setItlExact(result.itlExact())
                .setMetrics(result.metrics().stream().map(RunSummaries::summary).toList())
                .setErrors(Map.copyOf(errors))
                .setShards(shards.started().size())
                .setRecordsNotDelivered(shards.finished().stream()
                        .mapToLong(RunFinished::getRecordsNotDelivered).sum())
                .build();
    }

    private static Optional<Long> earliestSuccessfulSend(Supplier<KeyValueIterator<String, RequestMetrics>> requests) {
        long min = Long.MAX_VALUE;
        try (KeyValueIterator<String, RequestMetrics> it = requests.get()) {
            while (it.hasNext()) {
                RequestMetrics m = it.next().value;
                if (m.getSuccess()) {
                    min = Math.min(min, m.getSentEpochNs());
                }
            }
        }
        return min == Long.MAX_VALUE ? Optional.empty() : Optional.of(min);
    }

    static MetricSummary summary(MetricStats stats) {
        return MetricSummary.newBuilder()
                .setMetric(stats.metric().key())
                .setCount(stats.count())
                .setMeanMs(stats.meanMs())
                .setMedianMs(stats.medianMs())
                .setStdMs(stats.stdMs())
                .setPercentiles(stats.percentiles().stream()
                        .map(p -> new PercentileValue(p.percentile(), p.valueMs()))
                        .toList())
                .build();
    }

    // The load generator validated these options already; a record that still carries a bad one
    // gets vLLM's default rather than a summary that never comes.
    private static PercentileMetrics selection(String runId, RunStarted config) {
        try {
            return PercentileMetrics.parse(config.getPercentileMetrics());
        } catch (IllegalArgumentException e) {
            LOG.warn("run {}: {}; using {}", runId, e.getMessage(), PercentileMetrics.DEFAULT);
            return PercentileMetrics.DEFAULT;
        }
    }

    private static MetricPercentiles percentiles(String runId, RunStarted config) {
        try {
            return MetricPercentiles.parse(config.getMetricPercentiles());
        } catch (IllegalArgumentException e) {
            LOG.warn("run {}: {}; using {}", runId, e.getMessage(), MetricPercentiles.DEFAULT);
            return MetricPercentiles.DEFAULT;
        }
    }

    private static GoodputSlo goodput(String runId, RunStarted config) {
        if (config.getGoodput() == null || config.getGoodput().isBlank()) {
            return GoodputSlo.NONE;
        }
        try {
            return GoodputSlo.parse(List.of(config.getGoodput()));
        } catch (IllegalArgumentException e) {
            LOG.warn("run {}: {}; goodput off", runId, e.getMessage());
            return GoodputSlo.NONE;
        }
    }
}
