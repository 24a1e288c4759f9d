package io.tokenpulse.aggregator.exposition;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.tokenpulse.aggregator.metrics.GoodputSlo;
import io.tokenpulse.aggregator.metrics.RequestReasoning;
import io.tokenpulse.aggregator.metrics.RequestValues;
import io.tokenpulse.aggregator.records.RequestMetricsMapper;
import io.tokenpulse.aggregator.scoring.FailureReasons;
import io.tokenpulse.schemas.avro.RequestMetrics;
import io.tokenpulse.schemas.avro.RunSummary;
import io.tokenpulse.schemas.avro.WindowLatency;
import io.tokenpulse.schemas.avro.WindowMetrics;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The meters of one run, tagged {@code run_id}, {@code model}, {@code backend}. They are
 * registered once the run's tags are known ({@link #tag}); chunks counted before that are kept
 * and show up with the counter. In a LoRA run the request meters (latency timers, token and request
 * counters) carry the model each request named, one series per adapter; the run's other meters keep
 * the run's model. Threading: any thread; the hot paths take no lock.
 */
final class RunMeters {
    static final String UNKNOWN = "unknown";

    /** Latency timers span 100 µs (ITL of multi-event reads) to 15 min (E2EL under overload). */
    private static final Duration MIN_EXPECTED = Duration.ofNanos(100_000);

    private static final Duration MAX_EXPECTED = Duration.ofMinutes(15);
    private static final double MS_PER_S = 1e3;

    /** Turns with a {@code turn} tag of their own; the later ones share {@link #LAST_TURN_LABEL}. */
    private static final int TURN_LABELS = 10;

    static final String LAST_TURN_LABEL = "10+";

    /**
     * The server section's fields (window record, run summary) and their meters' names after
     * {@code tokenpulse.window.} or {@code tokenpulse.summary.} (times in seconds, as Prometheus expects).
     */
    static final Map<String, String> SERVER_GAUGES = Map.ofEntries(
            Map.entry("server_mean_running", "server.running.mean"),
            Map.entry("server_max_running", "server.running.max"),
            Map.entry("server_mean_waiting", "server.waiting.mean"),
            Map.entry("server_max_waiting", "server.waiting.max"),
            Map.entry("server_peak_kv_cache_usage", "server.kv.cache.usage.peak"),
            Map.entry("server_prefix_cache_hit_rate", "server.prefix.cache.hit.rate"),
            Map.entry("server_preemptions", "server.preemptions"),
            Map.entry("server_mean_ttft_ms", "server.ttft.mean"),
            Map.entry("server_median_ttft_ms", "server.ttft.median"),
            Map.entry("server_p99_ttft_ms", "server.ttft.p99"),
            Map.entry("server_mean_itl_ms", "server.itl.mean"),
            Map.entry("server_median_itl_ms", "server.itl.median"),
            Map.entry("server_p99_itl_ms", "server.itl.p99"),
            Map.entry("server_spec_decode_acceptance_rate", "server.spec.decode.acceptance.rate"),
            Map.entry("server_spec_decode_acceptance_length", "server.spec.decode.acceptance.length"));

    private final String runId;
    private final MeterRegistry registry;
    private final LongAdder chunkEvents = new LongAdder();
    private final WindowGauges window = new WindowGauges();
    private volatile Registered meters;
    private volatile boolean perModel;
    private final Map<String, Registered> byModel = new ConcurrentHashMap<>();
    private volatile double configuredRequestRate = Double.NaN;
    private volatile GoodputSlo goodput = GoodputSlo.NONE;
    private volatile long finishedAtMs = -1;

    RunMeters(String runId, MeterRegistry registry) {
        this.runId = runId;
        this.registry = registry;
    }

    /**
     * Registers the run's meters under these tags; later calls change nothing.
     *
     * @param goodput the run's {@code --goodput} SLOs; with any, requests meeting them are counted live
     * @param loraRun whether the run spreads its requests over LoRA adapters: then request meters are
     *     tagged with each request's model
     */
    synchronized void tag(String model, String backend, double requestRate, GoodputSlo goodput, boolean loraRun) {
        if (meters == null) {
            configuredRequestRate = requestRate;
            this.goodput = goodput;
            this.perModel = loraRun;
            meters = new Registered(Tags.of("run_id", runId, "model", model, "backend", backend), true);
        }
    }

    /** The meters, registered with unknown model and backend if the run's start was never seen. */
    private Registered meters() {
        Registered registered = meters;
        if (registered == null) {
            tag(UNKNOWN, UNKNOWN, Double.NaN, GoodputSlo.NONE, false);
            registered = meters;
        }
        return registered;
    }

    void chunkEvents(int events) {
        chunkEvents.add(events);
    }

    /**
     * Counts a request by outcome; a successful one adds its tokens and latency samples (docs/metrics.md,
     * run values: failures add no tokens and no latency samples, as in vLLM's numbers) and, when it
     * meets the run's goodput SLOs, counts as good (the same check the run summary makes).
     */
    void request(RequestMetrics m) {
        if (m.getProbe()) {
            return; // probes have their own section and stay out of the run's meters
        }
        Registered run = meters();
        Registered r = perModel && m.getModel() != null
                ? byModel.computeIfAbsent(m.getModel(), name -> new Registered(run.tags.and("model", name), false))
                : run;
        r.requests(m.getSuccess(), failureReason(m)).increment();
        if (!m.getSuccess()) {
            return;
        }
        RequestValues v = RequestMetricsMapper.values(m);
        if (r.goodRequests != null && goodput.isMetBy(v)) {
            r.goodRequests.increment();
        }
        r.inputTokens.increment(v.promptTokens());
        r.outputTokens.increment(v.outputTokens());
        v.cachedTokens().ifPresent(cached -> {
            r.cachedTokens.increment(cached);
            r.cacheReportingInputTokens.increment(v.promptTokens());
        });
        r.queueDelay.record(v.queueDelayNs(), TimeUnit.NANOSECONDS);
        if (v.firstArrived()) {
            r.ttft.record(v.ttftNs(), TimeUnit.NANOSECONDS);
            r.e2el.record(v.e2elNs(), TimeUnit.NANOSECONDS);
            if (m.getTurnIndex() != null) {
                r.ttftByTurn(m.getTurnIndex()).record(v.ttftNs(), TimeUnit.NANOSECONDS);
            }
        }
        v.tpotNs().ifPresent(tpotNs -> r.tpot.record(Math.round(tpotNs), TimeUnit.NANOSECONDS));
        RequestReasoning reasoning = RequestMetricsMapper.reasoning(m);
        if (reasoning.thought()) {
            reasoning.ttfoNs().ifPresent(ttfoNs -> r.ttfo().record(ttfoNs, TimeUnit.NANOSECONDS));
        }
        for (long itlNs : v.itlNs()) {
            r.itl.record(itlNs, TimeUnit.NANOSECONDS);
        }
    }

    void window(WindowMetrics w) {
        // Scrapes start before the health check, so the first windows may hold only scrapes and come
        // before the run's start: registering then would tag the run's meters model=unknown for good.
        // The next scrape's update, after the start, sets them.
        if (meters == null && w.getCompleted() + w.getFailed() == 0) {
            return;
        }
        window.update(meters(), w);
    }

    /** The run's summary arrived: its final numbers become gauges, kept until the run's series are removed. */
    synchronized void finished(RunSummary summary, long nowMs) {
        if (finishedAtMs < 0) {
            finishedAtMs = nowMs;
            SummaryGauges.register(registry, meters().tags, summary);
        }
    }

    boolean active() {
        return meters != null && finishedAtMs < 0;
    }

    boolean expired(long nowMs, long retentionMs) {
        return finishedAtMs >= 0 && nowMs - finishedAtMs >= retentionMs;
    }

    /** Removes every meter of this run from the registry. */
    void remove() {
        List<Meter> ours = registry.getMeters().stream()
                .filter(meter -> runId.equals(meter.getId().getTag("run_id")))
                .toList();
        ours.forEach(registry::remove);
    }

    /**
     * The {@code turn} tag of a session turn's TTFT: its index as the result file's {@code ttft_by_turn}
     * numbers it, {@code 0} to {@code 9}, and {@value #LAST_TURN_LABEL} for every later turn, so a
     * long conversation adds no series (11 at most per run and model).
     */
    static String turnLabel(int turnIndex) {
        return turnIndex < TURN_LABELS ? Integer.toString(turnIndex) : LAST_TURN_LABEL;
    }

    /** The bounded failure class, as {@link FailureReasons#classOf} decides it for the run summary too. */
    static String failureReason(RequestMetrics m) {
        return FailureReasons.classOf(m);
    }

    private final class Registered {
        final Tags tags;
        final Timer ttft;
        final Timer tpot;
        final Timer itl;
        final Timer e2el;
        final Timer queueDelay;
        /** Registered by the first request that thought: runs without reasoning show no TTFO series. */
        private volatile Timer ttfo;

        final Counter inputTokens;
        final Counter outputTokens;
        final Counter cachedTokens;
        final Counter cacheReportingInputTokens;
        /** Null when the run has no goodput SLO. */
        final Counter goodRequests;

        final Map<String, Counter> requestsByReason = new ConcurrentHashMap<>();
        /** TTFT of a session's turns by {@link #turnLabel}: registered by the first turn of each, so single-request runs have none. */
        private final Map<String, Timer> ttftByTurn = new ConcurrentHashMap<>();

        /** @param runLevel also register the run-wide meters (chunk events, configured rate), once per run */
        Registered(Tags tags, boolean runLevel) {
            this.tags = tags;
            ttft = timer("tokenpulse.request.ttft", "Time to first token of successful requests");
            tpot = timer("tokenpulse.request.tpot", "Time per output token after the first, requests with n > 1");
            itl = timer("tokenpulse.request.itl", "Inter-token latency: one sample per streamed event after the first");
            e2el = timer("tokenpulse.request.e2el", "End-to-end latency of successful requests");
            queueDelay = timer("tokenpulse.request.queue.delay", "Client-side wait from scheduled to sent");
            inputTokens = Counter.builder("tokenpulse.input.tokens")
                    .tags(tags)
                    .baseUnit("tokens")
                    .description("Prompt tokens of successful requests")
                    .register(registry);
            outputTokens = Counter.builder("tokenpulse.output.tokens")
                    .tags(tags)
                    .baseUnit("tokens")
                    .description("Output tokens of successful requests")
                    .register(registry);
            cachedTokens = Counter.builder("tokenpulse.cached.tokens")
                    .tags(tags)
                    .baseUnit("tokens")
                    .description("Prompt tokens the server reported as served from its prefix cache"
                            + " (usage.prompt_tokens_details.cached_tokens), successful requests")
                    .register(registry);
            cacheReportingInputTokens = Counter.builder("tokenpulse.cache.reporting.input.tokens")
                    .tags(tags)
                    .baseUnit("tokens")
                    .description("Prompt tokens of the successful requests whose server reported cached_tokens:"
                            + " the prefix-cache hit rate's denominator")
                    .register(registry);
            goodRequests = goodput.enabled()
                    ? Counter.builder("tokenpulse.goodput.requests")
                            .tags(tags)
                            .description("Successful requests meeting every --goodput SLO of the run")
                            .register(registry)
                    : null;
            // known outcomes start at 0, so a healthy run shows "0 failed", not "No data"
            requests(true, FailureReasons.NONE);
            FailureReasons.STATUS_FREE.forEach(reason -> requests(false, reason));
            if (!runLevel) {
                return;
            }
            FunctionCounter.builder("tokenpulse.chunk.events", chunkEvents, LongAdder::doubleValue)
                    .tags(tags)
                    .description(
                            "Streamed events the aggregator processed (chunk records, and the events of chunk-batch records)")
                    .register(registry);
            Gauge.builder(
                            "tokenpulse.run.configured.requests.per.second",
                            RunMeters.this,
                            run -> run.configuredRequestRate)
                    .tags(tags)
                    .strongReference(true)
                    .description("--request-rate of the run (+Inf for inf)")
                    .register(registry);
        }

        Timer ttfo() {
            Timer timer = ttfo;
            if (timer == null) {
                // Micrometer returns the registered timer for the same id: a race registers it once
                timer = timer(
                        "tokenpulse.request.ttfo",
                        "Time to first output token (answer, not thinking) of successful requests that thought");
                ttfo = timer;
            }
            return timer;
        }

        Timer ttftByTurn(int turnIndex) {
            return ttftByTurn.computeIfAbsent(
                    turnLabel(turnIndex),
                    turn -> timer(
                            "tokenpulse.request.ttft.by.turn",
                            "Time to first token of successful session turns, by turn index (0 the first, "
                                    + LAST_TURN_LABEL
                                    + " every later one)",
                            Tags.of("turn", turn)));
        }

        private Timer timer(String name, String description) {
            return timer(name, description, Tags.empty());
        }

        private Timer timer(String name, String description, Tags extra) {
            return Timer.builder(name)
                    .tags(tags)
                    .tags(extra)
                    .description(description)
                    .publishPercentileHistogram()
                    .minimumExpectedValue(MIN_EXPECTED)
                    .maximumExpectedValue(MAX_EXPECTED)
                    .register(registry);
        }

        Counter requests(boolean success, String reason) {
            return requestsByReason.computeIfAbsent(
                    reason,
                    r -> Counter.builder("tokenpulse.requests")
                            .tags(tags)
                            .tag("status", success ? "success" : "failure")
                            .tag("reason", r)
                            .description("Finished requests by outcome")
                            .register(registry));
        }
    }

    /**
     * The latest window's values as gauges: a window update older than the newest window seen is
     * ignored, for the client's figures (windows where requests finished) and the server's (windows
     * with scrapes of its /metrics) apart, so a scrape after the last request leaves the client's
     * figures alone. A latency the newest client window lacks (TTFO in a window where no request
     * thought) reads NaN, not an older window's value. A scrape during an update may mix two windows'
     * values for one metric.
     */
    private final class WindowGauges {
        private final Map<String, Cell> cells = new ConcurrentHashMap<>();
        private final Set<String> latencyNames = new HashSet<>();
        private long latestStartMs = Long.MIN_VALUE;
        private long latestServerStartMs = Long.MIN_VALUE;

        synchronized void update(Registered r, WindowMetrics w) {
            if (w.getCompleted() + w.getFailed() > 0 && w.getWindowStartEpochMs() >= latestStartMs) {
                latestStartMs = w.getWindowStartEpochMs();
                client(r, w);
            }
            if (w.getWindowStartEpochMs() >= latestServerStartMs) {
                boolean scraped = false;
                for (var field : SERVER_GAUGES.entrySet()) {
                    Double value = (Double) w.get(field.getKey());
                    if (value != null) {
                        scraped = true;
                        boolean ms = field.getKey().endsWith("_ms");
                        set(
                                r,
                                "tokenpulse.window." + field.getValue(),
                                null,
                                ms ? "seconds" : null,
                                ms ? value / MS_PER_S : value);
                    }
                }
                if (scraped) {
                    latestServerStartMs = w.getWindowStartEpochMs();
                }
            }
        }

        private void client(Registered r, WindowMetrics w) {
            set(r, "tokenpulse.window.requests.per.second", null, null, w.getRequestThroughput());
            set(r, "tokenpulse.window.output.tokens.per.second", null, null, w.getOutputThroughput());
            set(r, "tokenpulse.window.total.tokens.per.second", null, null, w.getTotalTokenThroughput());
            Set<String> absent = new HashSet<>(latencyNames);
            for (WindowLatency latency : w.getLatencies()) {
                String name = "tokenpulse.window." + latency.getMetric().replace('_', '.');
                latency(r, name, latency.getMedianMs(), latency.getP90Ms(), latency.getP99Ms(), latency.getMeanMs());
                latencyNames.add(name);
                absent.remove(name);
            }
            for (String name : absent) {
                latency(r, name, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
            }
        }

        private void latency(Registered r, String name, double medianMs, double p90Ms, double p99Ms, double meanMs) {
            set(r, name, "0.5", "seconds", medianMs / MS_PER_S);
            set(r, name, "0.9", "seconds", p90Ms / MS_PER_S);
            set(r, name, "0.99", "seconds", p99Ms / MS_PER_S);
            set(r, name + ".mean", null, "seconds", meanMs / MS_PER_S);
        }

        private void set(Registered r, String name, String quantile, String baseUnit, double value) {
            cells.computeIfAbsent(name + '|' + quantile, key -> {
                        Cell cell = new Cell();
                        Gauge.Builder<Cell> gauge = Gauge.builder(name, cell, c -> c.value)
                                .tags(r.tags)
                                .baseUnit(baseUnit)
                                .strongReference(true)
                                .description("Latest window of the run (event time)");
                        if (quantile != null) {
                            gauge.tag("quantile", quantile);
                        }
                        gauge.register(registry);
                        return cell;
                    })
                    .value = value;
        }
    }

    private static final class Cell {
        volatile double value = Double.NaN;
    }
}
