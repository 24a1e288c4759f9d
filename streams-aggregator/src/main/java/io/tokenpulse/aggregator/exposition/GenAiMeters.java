package io.tokenpulse.aggregator.exposition;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.tokenpulse.aggregator.metrics.RequestValues;
import io.tokenpulse.aggregator.records.RequestMetricsMapper;
import io.tokenpulse.aggregator.scoring.FailureReasons;
import io.tokenpulse.aggregator.topology.TopologyListener;
import io.tokenpulse.schemas.avro.RequestMetrics;
import io.tokenpulse.schemas.avro.RunEvent;
import io.tokenpulse.schemas.avro.RunStarted;
import io.tokenpulse.schemas.avro.RunSummary;
import io.tokenpulse.schemas.task.PoolingBackends;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The request meters under OpenTelemetry's generative-AI client metric names (semantic conventions,
 * "Semantic conventions for generative AI metrics", Development status), for an OTLP registry:
 * <ul>
 *   <li>{@code gen_ai.client.operation.duration} (s): each request from its send to the stream's end
 *       (or the error), with {@code error.type} (the failure class of {@code tokenpulse_requests_total}'s
 *       {@code reason}) on a failure;
 *   <li>{@code gen_ai.client.operation.time_to_first_chunk} (s): TTFT of each successful request;
 *   <li>{@code gen_ai.client.operation.time_per_output_chunk} (s): each gap between streamed events
 *       after the first, as {@code tokenpulse_request_itl_seconds};
 *   <li>{@code gen_ai.client.token.usage} ({token}), {@code gen_ai.token.type} {@code input} or
 *       {@code output}: each successful request's prompt and output tokens.
 * </ul>
 * Histograms have the conventions' bucket boundaries. Every series has {@code gen_ai.operation.name}
 * ({@code chat}, {@code text_completion} or {@code embeddings}, from the run's backend),
 * {@code gen_ai.request.model} (the model each request named) and {@code tokenpulse.run_id}. Probes are
 * left out, as from the Prometheus meters. A run's series are removed {@code retention} after its
 * summary. Threading: as {@link TopologyListener}.
 */
public final class GenAiMeters implements TopologyListener {

    static final String DURATION = "gen_ai.client.operation.duration";
    static final String TIME_TO_FIRST_CHUNK = "gen_ai.client.operation.time_to_first_chunk";
    static final String TIME_PER_OUTPUT_CHUNK = "gen_ai.client.operation.time_per_output_chunk";
    static final String TOKEN_USAGE = "gen_ai.client.token.usage";
    static final String RUN_ID = "tokenpulse.run_id";

    /** The conventions' boundaries for {@code gen_ai.client.operation.duration}, in seconds. */
    private static final double[] DURATION_BUCKETS_S = {
        0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92
    };
    /** For the time to the first chunk (the conventions' server time-to-first-token boundaries). */
    private static final double[] FIRST_CHUNK_BUCKETS_S = {
        0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0
    };
    /** For the time per output chunk (the conventions' server time-per-output-token boundaries). */
    private static final double[] PER_CHUNK_BUCKETS_S = {
        0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0, 2.5
    };
    /** The conventions' boundaries for {@code gen_ai.client.token.usage}. */
    private static final double[] TOKEN_BUCKETS = {
        1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864
    };

    private final MeterRegistry registry;
    private final long retentionMs;
    private final Clock clock;
    /** The operation name and model of each run whose start was seen. */
    private final Map<String, String[]> runs = new ConcurrentHashMap<>();

    private final Map<String, Long> finishedAtMs = new ConcurrentHashMap<>();

    /**
     * @param registry  where the meters go (an OTLP registry whose naming convention keeps the names)
     * @param retention how long a run's series stay after its summary
     */
    public GenAiMeters(MeterRegistry registry, Duration retention, Clock clock) {
        this.registry = registry;
        this.retentionMs = retention.toMillis();
        this.clock = clock;
    }

    /** {@code gen_ai.operation.name} of a backend: the conventions' well-known values. */
    static String operation(String backend) {
        if (PoolingBackends.contains(backend)) {
            return "embeddings";
        }
        return backend.contains("chat") || backend.contains("responses") || backend.contains("messages")
                ? "chat"
                : "text_completion";
    }

    @Override
    public void onRunEvent(RunEvent event) {
        if (event.getEvent() instanceof RunStarted started) {
            runs.putIfAbsent(event.getRunId(), new String[] {operation(started.getBackend()), started.getModelId()});
        }
    }

    @Override
    public void onRequestMetrics(RequestMetrics m) {
        if (m.getProbe()) {
            return;
        }
        String[] run = runs.getOrDefault(m.getRunId(), new String[] {RunMeters.UNKNOWN, RunMeters.UNKNOWN});
        Tags tags = Tags.of(
                "gen_ai.operation.name",
                run[0],
                "gen_ai.request.model",
                m.getModel() != null ? m.getModel() : run[1],
                RUN_ID,
                m.getRunId());
        if (!m.getSuccess()) {
            timer(
                            DURATION,
                            "GenAI operation duration",
                            DURATION_BUCKETS_S,
                            tags.and("error.type", FailureReasons.classOf(m)))
                    .record(Math.max(0, m.getFinishedEpochNs() - m.getSentEpochNs()), TimeUnit.NANOSECONDS);
            return;
        }
        RequestValues v = RequestMetricsMapper.values(m);
        timer(DURATION, "GenAI operation duration", DURATION_BUCKETS_S, tags)
                .record(Math.max(0, m.getFinishedEpochNs() - m.getSentEpochNs()), TimeUnit.NANOSECONDS);
        if (v.firstArrived()) {
            timer(TIME_TO_FIRST_CHUNK, "Time to receive the first chunk", FIRST_CHUNK_BUCKETS_S, tags)
                    .record(v.ttftNs(), TimeUnit.NANOSECONDS);
        }
        Timer perChunk =
                timer(TIME_PER_OUTPUT_CHUNK, "Time per output chunk, after the first", PER_CHUNK_BUCKETS_S, tags);
        for (long itlNs : v.itlNs()) {
            perChunk.record(itlNs, TimeUnit.NANOSECONDS);
        }
        tokens(tags.and("gen_ai.token.type", "input")).record(v.promptTokens());
        tokens(tags.and("gen_ai.token.type", "output")).record(v.outputTokens());
    }

    @Override
    public void onRunSummary(RunSummary summary) {
        long now = clock.wallTime();
        finishedAtMs.putIfAbsent(summary.getRunId(), now);
        // a run's series go with a later summary: a long-lived aggregator sees one per run
        finishedAtMs.forEach((runId, at) -> {
            if (now - at >= retentionMs) {
                remove(runId);
            }
        });
    }

    private void remove(String runId) {
        List<Meter> ours = registry.getMeters().stream()
                .filter(meter -> runId.equals(meter.getId().getTag(RUN_ID)))
                .toList();
        ours.forEach(registry::remove);
        runs.remove(runId);
        finishedAtMs.remove(runId);
    }

    private Timer timer(String name, String description, double[] bucketsS, Tags tags) {
        return Timer.builder(name)
                .description(description)
                .tags(tags)
                .serviceLevelObjectives(Arrays.stream(bucketsS)
                        .mapToObj(s -> Duration.ofNanos(Math.round(s * 1e9)))
                        .toArray(Duration[]::new))
                .register(registry);
    }

    private DistributionSummary tokens(Tags tags) {
        return DistributionSummary.builder(TOKEN_USAGE)
                .description("Number of input and output tokens used")
                .baseUnit("{token}")
                .tags(tags)
                .serviceLevelObjectives(TOKEN_BUCKETS)
                .register(registry);
    }
}
