package io.tokenpulse.aggregator.exposition;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.tokenpulse.aggregator.scoring.RunScoring;
import io.tokenpulse.aggregator.topology.AggregatorTopology;
import io.tokenpulse.aggregator.topology.TopologyListener;
import io.tokenpulse.schemas.ChunkBatches;
import io.tokenpulse.schemas.Topics;
import io.tokenpulse.schemas.avro.Chunk;
import io.tokenpulse.schemas.avro.ChunkBatch;
import io.tokenpulse.schemas.avro.RequestMetrics;
import io.tokenpulse.schemas.avro.RunEvent;
import io.tokenpulse.schemas.avro.RunStarted;
import io.tokenpulse.schemas.avro.RunSummary;
import io.tokenpulse.schemas.avro.WindowMetrics;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.streams.KafkaStreams;

/**
 * The aggregator's live Micrometer meters, fed by {@link io.tokenpulse.aggregator.topology.AggregatorTopology}
 * through {@link TopologyListener}. Prometheus names as scraped (tags {@code run_id}, {@code model},
 * {@code backend} on every per-run series; {@code model}/{@code backend} are {@code unknown} when the
 * instance restarted mid-run and never saw the run's start):
 * <ul>
 *   <li>{@code tokenpulse_request_{ttft,tpot,itl,e2el,queue_delay}_seconds} histograms
 *       ({@code _bucket}, {@code _count}, {@code _sum}; 100 µs .. 15 min) of successful requests,
 *       for {@code histogram_quantile} and heatmaps; ITL has one sample per streamed event;
 *   <li>{@code tokenpulse_request_ttfo_seconds} (same buckets): a reasoning model's time to first output
 *       token (the first answer text, not thinking), of the successful requests that thought; registered
 *       by the first of them, so runs without reasoning have none;
 *   <li>{@code tokenpulse_request_ttft_by_turn_seconds{turn}} (same buckets): the TTFT of a multi-turn
 *       session's turns by turn index, {@code turn} {@code 0} (each session's first) to {@code 9} and
 *       {@code 10+} for the later ones, so its series stay bounded; registered by the first turn of each,
 *       so runs without sessions have none;
 *   <li>{@code tokenpulse_requests_total{status="success|failure", reason}}: reason {@code none},
 *       {@code http_<status>}, {@code stream} (200 then a broken stream) or {@code no_response};
 *   <li>{@code tokenpulse_input_tokens_total}, {@code tokenpulse_output_tokens_total} (successful
 *       requests), {@code tokenpulse_chunk_events_total} (streamed events processed: a chunk record
 *       counts one, a chunk-batch record as many as it carries);
 *   <li>{@code tokenpulse_cached_tokens_total} (prompt tokens the server reported as served from its
 *       prefix cache) and {@code tokenpulse_cache_reporting_input_tokens_total} (the prompt tokens of the
 *       requests that reported it): their rates' ratio is the prefix-cache hit rate; probes count in no meter;
 *   <li>{@code tokenpulse_goodput_requests_total}: successful requests meeting every {@code --goodput}
 *       SLO of the run (checked as the run summary checks them); only for runs with {@code --goodput};
 *   <li>the latest event-time window: {@code tokenpulse_window_{ttft,tpot,itl,e2el,queue_delay}_seconds
 *       {quantile="0.5|0.9|0.99"}}, {@code tokenpulse_window_<metric>_mean_seconds},
 *       {@code tokenpulse_window_requests_per_second}, {@code tokenpulse_window_output_tokens_per_second},
 *       {@code tokenpulse_window_total_tokens_per_second} (from the latest window where requests finished);
 *       a reasoning run adds {@code tokenpulse_window_ttfo_seconds{quantile}} and {@code tokenpulse_window_ttfo_mean_seconds}
 *       (time to first output token; from the latest window where a request that thought finished);
 *   <li>the latest window with scrapes of the server's {@code /metrics} ({@code bench --server-metrics}):
 *       {@code tokenpulse_window_server_{running,waiting}_{mean,max}},
 *       {@code tokenpulse_window_server_kv_cache_usage_peak}, {@code tokenpulse_window_server_prefix_cache_hit_rate},
 *       {@code tokenpulse_window_server_preemptions},
 *       {@code tokenpulse_window_server_{ttft,itl}_{mean,median,p99}_seconds},
 *       {@code tokenpulse_window_server_spec_decode_acceptance_{rate,length}}: only what the engine exposes;
 *   <li>{@code tokenpulse_run_configured_requests_per_second} ({@code --request-rate});
 *   <li>once the run's summary is written, its final numbers as {@code tokenpulse_summary_*} gauges
 *       (listed in {@code SummaryGauges}), until the run's series are removed;
 *   <li>without run tags: {@code tokenpulse_aggregator_freshness_seconds} (now minus the newest chunk
 *       arrival processed, a batch's by its newest event), {@code tokenpulse_runs_active} (started, no
 *       summary yet), and after {@link #bindStreams} {@code tokenpulse_dead_lettered_records_total{topic}}
 *       plus Kafka Streams' own meters ({@code kafka_consumer_fetch_manager_records_lag_max} and the rest).
 * </ul>
 * A run's series are removed {@code finishedRunRetention} after its summary, and records of a
 * removed run are ignored. Threading: thread-safe; the listener calls take no lock on the hot path.
 */
public final class AggregatorMeters implements TopologyListener, AutoCloseable {
    public static final Duration DEFAULT_FINISHED_RUN_RETENTION = Duration.ofMinutes(5);

    /** How many removed run ids are remembered, so their late records do not bring them back. */
    private static final int REMEMBERED_REMOVED_RUNS = 10_000;

    private static final String DEAD_LETTER_METRIC = "dead-lettered-records-total";
    private static final String DEAD_LETTER_GROUP = "stream-tokenpulse-metrics";
    private static final String DEAD_LETTER_TOPIC_TAG = "tokenpulse-id";

    private final MeterRegistry registry;
    private final Clock clock;
    private final long retentionMs;
    private final ConcurrentMap<String, RunMeters> runs = new ConcurrentHashMap<>();
    private final Set<String> removed = Collections.synchronizedSet(Collections.newSetFromMap(new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > REMEMBERED_REMOVED_RUNS;
        }
    }));
    private final AtomicLong newestEventEpochNs = new AtomicLong(Long.MIN_VALUE);
    private final ScheduledExecutorService expiry;
    private volatile KafkaStreamsMetrics streamsMetrics;
    /** Held here: a function counter keeps only a weak reference, and a collected one freezes the count. */
    private volatile Supplier<Map<MetricName, ? extends Metric>> deadLetterSource;

    AggregatorMeters(
            MeterRegistry registry, Duration finishedRunRetention, Clock clock, ScheduledExecutorService expiry) {
        if (finishedRunRetention.isNegative()) {
            throw new IllegalArgumentException("finished-run retention must be >= 0, got " + finishedRunRetention);
        }
        this.registry = registry;
        this.clock = clock;
        this.retentionMs = finishedRunRetention.toMillis();
        this.expiry = expiry;
        Gauge.builder("tokenpulse.aggregator.freshness", this, AggregatorMeters::freshnessSeconds)
                .baseUnit("seconds")
                .description("Now minus the newest chunk arrival time the aggregator processed")
                .register(registry);
        Gauge.builder(
                        "tokenpulse.runs.active",
                        runs,
                        all -> all.values().stream().filter(RunMeters::active).count())
                .description("Runs started and not yet summarized")
                .register(registry);
    }

    /**
     * Registers the process-wide meters in {@code registry} and removes each finished run's
     * series {@code finishedRunRetention} after its summary (checked every few seconds on a
     * daemon thread).
     */
    public static AggregatorMeters register(MeterRegistry registry, Duration finishedRunRetention) {
        ScheduledExecutorService expiry = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "tp-metrics-expiry");
            thread.setDaemon(true);
            return thread;
        });
        AggregatorMeters meters = new AggregatorMeters(registry, finishedRunRetention, Clock.SYSTEM, expiry);
        long periodMs = Math.max(1_000, Math.min(10_000, meters.retentionMs / 4));
        expiry.scheduleWithFixedDelay(meters::removeExpiredRuns, periodMs, periodMs, TimeUnit.MILLISECONDS);
        return meters;
    }

    /**
     * Adds the running Kafka Streams client's meters: dead-lettered records per source topic
     * (from the topology's {@code dead-lettered-records-total} metric) and Micrometer's
     * {@link KafkaStreamsMetrics} (consumer lag, commit rates, ...).
     */
    public void bindStreams(KafkaStreams streams, Topics topics) {
        bindDeadLetters(streams::metrics, AggregatorTopology.deadLetterSources(topics));
        KafkaStreamsMetrics binder = new KafkaStreamsMetrics(streams);
        binder.bindTo(registry);
        streamsMetrics = binder;
    }

    /** One counter per source topic, summed over the stream threads at each scrape. */
    void bindDeadLetters(Supplier<Map<MetricName, ? extends Metric>> metrics, List<String> sourceTopics) {
        deadLetterSource = metrics;
        for (String topic : sourceTopics) {
            FunctionCounter.builder("tokenpulse.dead.lettered.records", metrics, m -> deadLettered(m.get(), topic))
                    .tag("topic", topic)
                    .description("Records sent to the dead-letter topic, by source topic")
                    .register(registry);
        }
    }

    private static double deadLettered(Map<MetricName, ? extends Metric> metrics, String topic) {
        double total = 0;
        for (Map.Entry<MetricName, ? extends Metric> entry : metrics.entrySet()) {
            MetricName name = entry.getKey();
            if (name.name().equals(DEAD_LETTER_METRIC)
                    && name.group().equals(DEAD_LETTER_GROUP)
                    && topic.equals(name.tags().get(DEAD_LETTER_TOPIC_TAG))
                    && entry.getValue().metricValue() instanceof Number n) {
                total += n.doubleValue();
            }
        }
        return total;
    }

    @Override
    public void onChunk(Chunk chunk) {
        chunkEvents(chunk.getRunId(), 1, chunk.getArrivedEpochNs());
    }

    @Override
    public void onChunkBatch(ChunkBatch batch) {
        chunkEvents(batch.getRunId(), ChunkBatches.size(batch), ChunkBatches.newestArrivedEpochNs(batch));
    }

    private void chunkEvents(String runId, int events, long newestArrivedEpochNs) {
        newestEventEpochNs.accumulateAndGet(newestArrivedEpochNs, Math::max);
        RunMeters run = run(runId);
        if (run != null) {
            run.chunkEvents(events);
        }
    }

    @Override
    public void onRunEvent(RunEvent event) {
        RunMeters run = run(event.getRunId());
        if (run != null && event.getEvent() instanceof RunStarted started) {
            run.tag(
                    started.getModelId(),
                    started.getBackend(),
                    started.getRequestRate(),
                    RunScoring.Options.storedIn(event.getRunId(), started).goodput(),
                    !started.getLoraModules().isEmpty());
        }
    }

    @Override
    public void onRequestMetrics(RequestMetrics metrics) {
        RunMeters run = run(metrics.getRunId());
        if (run != null) {
            run.request(metrics);
        }
    }

    @Override
    public void onWindowMetrics(WindowMetrics window) {
        RunMeters run = run(window.getRunId());
        if (run != null) {
            run.window(window);
        }
    }

    @Override
    public void onRunSummary(RunSummary summary) {
        RunMeters run = run(summary.getRunId());
        if (run != null) {
            run.finished(summary, clock.wallTime());
        }
    }

    /** The run's meters, or null when the run's series were already removed. */
    private RunMeters run(String runId) {
        RunMeters run = runs.get(runId);
        if (run != null) {
            return run;
        }
        return runs.computeIfAbsent(runId, id -> removed.contains(id) ? null : new RunMeters(id, registry));
    }

    /** Removes the series of runs summarized at least the retention ago. */
    void removeExpiredRuns() {
        long nowMs = clock.wallTime();
        runs.forEach((runId, run) -> {
            if (run.expired(nowMs, retentionMs)) {
                removed.add(runId);
                runs.remove(runId);
                run.remove();
            }
        });
    }

    private double freshnessSeconds() {
        long newest = newestEventEpochNs.get();
        if (newest == Long.MIN_VALUE) {
            return Double.NaN;
        }
        return (TimeUnit.MILLISECONDS.toNanos(clock.wallTime()) - newest) / 1e9;
    }

    /** Stops the expiry thread and Kafka Streams' meter binder; the registered meters stay. */
    @Override
    public void close() {
        if (expiry != null) {
            expiry.shutdownNow();
        }
        KafkaStreamsMetrics binder = streamsMetrics;
        if (binder != null) {
            binder.close();
        }
    }
}
