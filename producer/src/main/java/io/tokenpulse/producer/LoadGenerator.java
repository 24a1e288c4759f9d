package io.tokenpulse.producer;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tokenpulse.producer.backend.Backend;
import io.tokenpulse.producer.backend.BackendSettings;
import io.tokenpulse.producer.backend.Backends;
import io.tokenpulse.producer.backend.PromptRequest;
import io.tokenpulse.producer.backend.RequestOutcome;
import io.tokenpulse.producer.console.Progress;
import io.tokenpulse.producer.console.VllmLines;
import io.tokenpulse.producer.dataset.Dataset;
import io.tokenpulse.producer.dataset.Datasets;
import io.tokenpulse.producer.dataset.SampledRequest;
import io.tokenpulse.producer.health.ClientHealth;
import io.tokenpulse.producer.http.HttpClientSettings;
import io.tokenpulse.producer.http.StreamRequest;
import io.tokenpulse.producer.http.StreamingHttpClient;
import io.tokenpulse.producer.publish.EventPublisher;
import io.tokenpulse.producer.publish.PublishCounts;
import io.tokenpulse.producer.scrape.RunScrapes;
import io.tokenpulse.schemas.avro.RunEvent;
import io.tokenpulse.tokenizers.Tokenizer;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one load-generator shard of a benchmark the way vLLM's serving benchmark runs, while
 * publishing every request's and every streamed event's timing to Kafka.
 *
 * <p>In order: sample the dataset; wait for {@code <base url>/health}; send the initial single
 * prompt test run (dataset request 0; not counted, not published; its failure stops the run);
 * send {@code --num-warmups} copies of it ({@link WarmUp}; not counted, not published); print
 * vLLM's traffic lines; start the progress bar; anchor the schedule start and publish RunStarted;
 * send each request at {@code start + offset} from a scheduler that never waits on responses (only
 * on {@code --max-concurrency} permits); publish RequestStarted, one Chunk per timing event from the
 * I/O thread, and RequestFinished; once every request finished, flush Kafka for at most
 * {@link #FLUSH_TIMEOUT} and publish RunFinished with the counts.
 *
 * <p>Stopping ({@link #withStop}, or an interrupt of the thread that runs it): no request is sent
 * after the stop; the requests in flight may finish for the drain timeout, then are cancelled; the
 * RunFinished record says the shard was interrupted. A stop before the schedule starts ends the run
 * with {@link InterruptedException} and publishes nothing. Once RunFinished is being published, a
 * stop does nothing: that record must not be cut short.
 *
 * <p>One generator, configured once ({@link #withMeters}, {@link #withHttp}), runs one shard per
 * {@link #run} call; each run's own state lives in a {@link ShardRun}.
 *
 * <p>Timing never waits on Kafka: publishing only appends to the publisher's bounded queue, and
 * what cannot be delivered is counted ({@link LoadResult#recordsNotDelivered()}). Server errors
 * are failed requests with reasons, never an exception. Only counters outlive a finished
 * request, so memory stays bounded in duration mode.
 */
public final class LoadGenerator {

    /** How long an interrupted run waits for its cancelled requests to report their end. */
    static final Duration CANCEL_TIMEOUT = Duration.ofSeconds(10);
    /** How long an interrupted run lets its requests in flight finish, unless told otherwise. */
    static final Duration DEFAULT_DRAIN_TIMEOUT = Duration.ofSeconds(30);
    /** How long the end of a run waits for Kafka to acknowledge what it was given. */
    static final Duration FLUSH_TIMEOUT = Duration.ofSeconds(30);
    /** How much longer the end of a run waits while records kept on disk wait for Kafka to come back. */
    static final Duration SPOOL_WAIT = Duration.ofMinutes(10);

    private static final Logger LOG = LoggerFactory.getLogger(LoadGenerator.class);

    private final EventPublisher publisher;
    private final Tokenizer tokenizer;
    private final PrintStream out;
    private final MeterRegistry registry;
    private final HttpClientSettings http;
    private final Duration drainTimeout;
    private final CompletionStage<?> stop;
    private final FirstTokenListener firstTokens;
    /** The run's scrapes of the server's /metrics, ended before RunFinished; null when not scraping. */
    private final RunScrapes scrapes;

    /**
     * @param publisher an open publisher; left open (the caller closes it)
     * @param tokenizer the tokenizer named by the settings' {@code workload().tokenizerId()}
     * @param out where vLLM's pre-run lines and the progress bar go
     */
    public LoadGenerator(EventPublisher publisher, Tokenizer tokenizer, PrintStream out) {
        this(
                publisher,
                tokenizer,
                out,
                new SimpleMeterRegistry(),
                HttpClientSettings.defaults(),
                DEFAULT_DRAIN_TIMEOUT,
                new CompletableFuture<>(),
                FirstTokenListener.NONE,
                null);
    }

    private LoadGenerator(
            EventPublisher publisher,
            Tokenizer tokenizer,
            PrintStream out,
            MeterRegistry registry,
            HttpClientSettings http,
            Duration drainTimeout,
            CompletionStage<?> stop,
            FirstTokenListener firstTokens,
            RunScrapes scrapes) {
        this.publisher = publisher;
        this.tokenizer = tokenizer;
        this.out = out;
        this.registry = registry;
        this.http = http;
        this.drainTimeout = drainTimeout;
        this.stop = stop;
        this.firstTokens = firstTokens;
        this.scrapes = scrapes;
    }

    /** This generator exposing the client's health (schedule lag, requests in flight, chunk and publisher counts) in {@code meters}. */
    public LoadGenerator withMeters(MeterRegistry meters) {
        return new LoadGenerator(publisher, tokenizer, out, meters, http, drainTimeout, stop, firstTokens, scrapes);
    }

    /** This generator with other HTTP client settings (timeouts, I/O threads). */
    public LoadGenerator withHttp(HttpClientSettings settings) {
        return new LoadGenerator(
                publisher, tokenizer, out, registry, settings, drainTimeout, stop, firstTokens, scrapes);
    }

    /**
     * This generator stopping its run when {@code stop} completes (a Ctrl-C), and letting the requests
     * in flight then finish for at most {@code drainTimeout} before cancelling them.
     */
    public LoadGenerator withStop(CompletionStage<?> stop, Duration drainTimeout) {
        return new LoadGenerator(publisher, tokenizer, out, registry, http, drainTimeout, stop, firstTokens, scrapes);
    }

    /** This generator telling {@code listener} each request's time to first token as it arrives. */
    public LoadGenerator withFirstTokens(FirstTokenListener listener) {
        return new LoadGenerator(publisher, tokenizer, out, registry, http, drainTimeout, stop, listener, scrapes);
    }

    /**
     * This generator ending {@code scrapes} when its run finishes, before RunFinished, which then
     * announces how many server-metrics records the run published ({@code server_metric_records}).
     */
    public LoadGenerator withServerScrapes(RunScrapes scrapes) {
        return new LoadGenerator(publisher, tokenizer, out, registry, http, drainTimeout, stop, firstTokens, scrapes);
    }

    /**
     * Runs the shard described by {@code settings} and returns its counts; logs nothing secret.
     *
     * @throws IllegalArgumentException when the dataset cannot be built from the settings
     * @throws IllegalStateException when the server is not ready within the readiness timeout, or
     *     the initial test run fails (vLLM's message, with the error)
     * @throws InterruptedException when stopped or interrupted before the schedule starts (nothing
     *     published). Later, a stop or an interrupt ends the schedule instead: the run drains, publishes
     *     its RunFinished, and returns counts marked {@link LoadResult#interrupted()}, with the thread's
     *     interrupt status cleared (the result carries it).
     */
    public LoadResult run(LoadSettings settings) throws InterruptedException {
        return run(
                settings, sample(settings, Datasets.create(settings.workload().dataset(), tokenizer)));
    }

    /**
     * The run's requests, drawn before anything is timed, as vLLM does: a caller that measures the run
     * (its CPU, say), or that built the dataset already to check the options (so a large file is read
     * once), draws them itself and passes them to {@link #run(LoadSettings, List)}.
     */
    public static List<SampledRequest> sample(LoadSettings settings, Dataset dataset) {
        LoadSettings.Workload workload = settings.workload();
        return dataset.sample(workload.numPrompts(), workload.arrivals().seed());
    }

    /** As {@link #run(LoadSettings)}, with the requests already drawn by {@link #sample}. */
    public LoadResult run(LoadSettings settings, List<SampledRequest> samples) throws InterruptedException {
        RunThread thread = new RunThread(Thread.currentThread());
        stop.thenRun(thread::stop);
        try {
            return run(settings, samples, thread);
        } finally {
            thread.finishing();
        }
    }

    private LoadResult run(LoadSettings settings, List<SampledRequest> samples, RunThread thread)
            throws InterruptedException {
        LoadSettings.Workload workload = settings.workload();
        HealthCheck.awaitReady(
                settings.target().healthUrl(),
                settings.readinessTimeout(),
                settings.target().insecure(),
                out);
        ExecutorService counting = Executors.newSingleThreadExecutor(daemon("tp-token-count"));
        try (StreamingHttpClient client =
                new StreamingHttpClient(http.withInsecureTls(settings.target().insecure()))) {
            Backend backend = Backends.get(settings.target().backend());
            long testLatencyNs = testRun(client, backend, settings, samples.get(0));
            VllmLines.traffic(workload.arrivals(), workload.maxConcurrency(), workload.durationMinutes(), out);
            Shard shard = new Shard(settings.shardIndex(), settings.shardCount());
            RequestPlan plan = workload.durationMinutes() == null
                    ? RequestPlan.fixed(workload.arrivals(), shard, samples)
                    : RequestPlan.forDuration(workload.arrivals(), workload.durationNs(), shard, samples);
            if (plan.ownTimes()) {
                out.println("Trace replay: each request is sent at its trace time scaled by --trace-time-scale;"
                        + " --request-rate, --burstiness and --ramp-up-* do not apply");
            }
            samples = null; // the plan holds what is still to send
            int warmConnections = WarmPool.open(
                    client,
                    settings.target().baseUrl(),
                    plan.ownTimes()
                            ? WarmPool.sizeForTimes(plan.plannedOffsetsNs(), workload.maxConcurrency(), testLatencyNs)
                            : WarmPool.size(
                                    workload.arrivals(), workload.maxConcurrency(), plan.plannedSize(), testLatencyNs));
            try (ClientHealth health = ClientHealth.register(
                    registry,
                    settings.runId(),
                    settings.target().model(),
                    settings.target().backend(),
                    settings.shardIndex(),
                    publisher::counts)) {
                return new ShardRun(settings, plan, client, backend, counting, health, thread, warmConnections)
                        .sendAll();
            }
        } finally {
            counting.shutdownNow();
        }
    }

    /**
     * vLLM's initial single prompt test run, then its warm-up requests (the same request), with vLLM's
     * messages; returns the test request's latency, which sizes the connection pool opened next.
     */
    private long testRun(StreamingHttpClient client, Backend backend, LoadSettings settings, SampledRequest sample)
            throws InterruptedException {
        VllmLines.testRunStarting(out);
        long sentNs = System.nanoTime();
        ProbeRequest probe = new ProbeRequest(backend.newResponse());
        // vLLM sends the test request without a request id; one is required here, so it gets a
        // name that cannot be mistaken for a request index.
        client.send(
                streamRequest(
                        backend,
                        settings.target().backendSettings(),
                        settings.requestIdPrefix() + "test",
                        sample,
                        null),
                probe);
        RequestOutcome outcome;
        try {
            outcome = probe.outcome().get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("the initial test run failed unexpectedly: " + e.getCause(), e.getCause());
        }
        long latencyNs = System.nanoTime() - sentNs;
        if (!outcome.success()) {
            throw new IllegalStateException(VllmLines.testRunFailed(outcome.error()));
        }
        int warmUps = settings.workload().numWarmups();
        VllmLines.testRunCompleted(warmUps, out);
        if (warmUps > 0) {
            WarmUp.run(
                    client,
                    backend,
                    i -> streamRequest(
                            backend,
                            settings.target().backendSettings(),
                            settings.requestIdPrefix() + "warmup-" + i,
                            sample,
                            null),
                    warmUps,
                    settings.workload().maxConcurrency(),
                    settings.disableProgress(),
                    out);
        }
        return latencyNs;
    }

    /** @param model the model the request names instead of the settings' (a LoRA adapter), or null */
    private static StreamRequest streamRequest(
            Backend backend, BackendSettings backendSettings, String requestId, SampledRequest sample, String model) {
        return backend.buildRequest(
                        backendSettings,
                        PromptRequest.of(requestId, sample.prompt(), sample.expectedOutputLen())
                                .withModel(model))
                .toStreamRequest();
    }

    /** One shard's run in progress: what its requests share, from the schedule start to RunFinished. */
    private final class ShardRun {
        private final LoadSettings settings;
        private final RequestPlan plan;
        private final StreamingHttpClient client;
        private final Backend backend;
        private final ExecutorService counting;
        private final ClientHealth health;
        private final RunThread thread;
        private final RunTally tally = new RunTally();
        /** Stopped before the schedule's end; set by the scheduler thread only. */
        private boolean interrupted;
        /** Connections open in the pool when the schedule started. */
        private final int warmConnections;

        ShardRun(
                LoadSettings settings,
                RequestPlan plan,
                StreamingHttpClient client,
                Backend backend,
                ExecutorService counting,
                ClientHealth health,
                RunThread thread,
                int warmConnections) {
            this.settings = settings;
            this.warmConnections = warmConnections;
            this.plan = plan;
            this.client = client;
            this.backend = backend;
            this.counting = counting;
            this.health = health;
            this.thread = thread;
        }

        LoadResult sendAll() throws InterruptedException {
            LoadSettings.Workload workload = settings.workload();
            BackendSettings backendSettings = settings.target().backendSettings();
            String[] models = workload.requestModels();
            Dispatcher dispatcher = new Dispatcher(Ticker.SYSTEM, workload.maxConcurrency());
            SendLateness lateness = plan.ownTimes() ? new SendLateness(plan.plannedSize()) : null;
            ClientLag lag = new ClientLag(!plan.ownTimes()
                    && workload.arrivals().rampUp() == null
                    && Double.isInfinite(workload.arrivals().requestRate()));
            StreamingHttpClient.IoCpu ioBefore = client.ioCpu();
            LoadResult result;
            try (Progress progress = Progress.start(out, plan.plannedSize(), settings.disableProgress())) {
                Anchor anchor = Anchor.now();
                CompletableFuture<Void> started =
                        publisher.publishRun(RunRecords.started(settings, anchor, plan.plannedSize()), FLUSH_TIMEOUT);
                RunContext run = new RunContext(
                        settings.runId(),
                        settings.shardIndex(),
                        anchor,
                        publisher.countingChunks(health::chunkPublished),
                        tally,
                        tokenizer,
                        counting,
                        settings.keepGeneratedText(),
                        () -> {
                            dispatcher.releasePermit();
                            health.requestFinished();
                            progress.step();
                        },
                        index -> models == null ? backendSettings.model() : models[index % models.length],
                        firstTokens);
                long endNs =
                        workload.durationMinutes() == null ? Long.MAX_VALUE : anchor.startNs() + workload.durationNs();
                try {
                    dispatcher.run(anchor.startNs(), endNs, plan, request -> {
                        String requestId = settings.requestId(request.index());
                        StreamRequest http = streamRequest(
                                backend,
                                backendSettings,
                                requestId,
                                request.sample(),
                                models == null ? null : models[request.index() % models.length]);
                        return permitNs -> {
                            tally.requestStarted();
                            long launchedNs = System.nanoTime();
                            health.requestSent(anchor.startNs() + request.offsetNs(), launchedNs);
                            lag.record(anchor.startNs() + request.offsetNs(), permitNs, launchedNs);
                            if (lateness != null) {
                                lateness.record(anchor.startNs() + request.offsetNs(), launchedNs);
                            }
                            client.send(
                                    http,
                                    new RequestStream(
                                            run, backend.newResponse(), request, requestId, permitNs, launchedNs));
                        };
                    });
                } catch (InterruptedException e) {
                    interrupted = true;
                }
                tally.sendingEnded();
                boolean drained = awaitInFlight();
                double ioBusy = client.ioCpu().busiestShareSince(ioBefore);
                if (!drained) {
                    client.close(); // fails every request in flight, so each still gets its RequestFinished
                    if (!awaitAll(CANCEL_TIMEOUT)) {
                        LOG.warn(
                                "run {}: {} requests did not end within {} of being cancelled; counted as failed"
                                        + " without a RequestFinished record",
                                settings.runId(),
                                tally.unfinished(),
                                CANCEL_TIMEOUT);
                    }
                }
                // From here on a stop no longer interrupts: RunFinished must be published.
                thread.finishing();
                result = finish(anchor, started, lag.p99Ms(), ioBusy);
            }
            if (lateness != null) {
                out.println(lateness.line());
            }
            return result;
        }

        /**
         * Waits for the requests in flight to end: without limit while the run is not interrupted (each
         * request has its own timeouts), and for at most the drain timeout once it is (before or during
         * the wait). False when the drain timeout ran out.
         */
        private boolean awaitInFlight() {
            long deadlineNs = interrupted ? drainStarts() : 0;
            while (true) {
                try {
                    if (interrupted) {
                        tally.allFinished().get(Math.max(0, deadlineNs - System.nanoTime()), TimeUnit.NANOSECONDS);
                    } else {
                        tally.allFinished().get();
                    }
                    return true;
                } catch (InterruptedException e) {
                    if (!interrupted) {
                        interrupted = true;
                        deadlineNs = drainStarts();
                    }
                } catch (TimeoutException e) {
                    return false;
                } catch (ExecutionException e) {
                    throw new IllegalStateException("bug: the run's completion failed", e.getCause());
                }
            }
        }

        /** Says what an interrupted run does now; returns the drain's deadline. */
        private long drainStarts() {
            LOG.info(
                    "run {} interrupted: no new requests; waiting up to {} s for the {} in flight",
                    settings.runId(),
                    drainTimeout.toSeconds(),
                    tally.unfinished());
            return System.nanoTime() + drainTimeout.toNanos();
        }

        /**
         * Waits for every request's RequestFinished, for at most {@code timeout}; an interrupt meanwhile
         * is remembered, not obeyed. False when the time ran out.
         */
        private boolean awaitAll(Duration timeout) {
            long deadlineNs = System.nanoTime() + timeout.toNanos();
            boolean interrupted = false;
            try {
                while (true) {
                    try {
                        tally.allFinished().get(Math.max(0, deadlineNs - System.nanoTime()), TimeUnit.NANOSECONDS);
                        return true;
                    } catch (InterruptedException e) {
                        interrupted = true;
                    } catch (TimeoutException e) {
                        return false;
                    } catch (ExecutionException e) {
                        throw new IllegalStateException("bug: the run's completion failed", e.getCause());
                    }
                }
            } finally {
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        private LoadResult finish(Anchor anchor, CompletableFuture<Void> started, double sendLagP99Ms, double ioBusy) {
            long lastNs = tally.lastFinishedNs(anchor.startNs());
            RunTally.Counts counts = tally.counts();
            // the last scrape first: the delivery wait below covers its records, RunFinished counts them
            Long serverMetricRecords = scrapes == null ? null : scrapes.finish();
            RunEvent finished = RunRecords.finished(
                    settings, anchor, lastNs, counts, awaitDelivery(), interrupted, serverMetricRecords);
            List<String> lost = new ArrayList<>();
            undelivered("RunStarted", started).ifPresent(lost::add);
            undelivered("RunFinished", deliverRunFinished(finished)).ifPresent(lost::add);
            PublishCounts delivery = publisher.flush(FLUSH_TIMEOUT);
            if (delivery.notDelivered() > 0) {
                LOG.warn(
                        "run {}: {} records were not delivered to Kafka: {}",
                        settings.runId(),
                        delivery.notDelivered(),
                        delivery.notDeliveredByReason());
            }
            if (delivery.spooled() > 0) {
                out.printf(
                        "%d records Kafka did not take stay in %s; once Kafka is back, publish them with:"
                                + " tokenpulse publish-spool %s --bootstrap-servers HOST:PORT%n",
                        delivery.spooled(), publisher.spoolDir(), publisher.spoolDir());
            }
            return new LoadResult(
                    counts.started(),
                    counts.succeeded(),
                    counts.failed(),
                    counts.chunkEvents(),
                    delivery.notDelivered(),
                    delivery.notDeliveredByReason(),
                    lost,
                    sortedByCount(counts.failureReasons()),
                    anchor.startEpochNs(),
                    anchor.offsetNs(lastNs),
                    interrupted,
                    sendLagP99Ms,
                    ioBusy,
                    settings.workload().numWarmups(),
                    warmConnections);
        }
    }

    /**
     * Waits for Kafka to take what it was given; while records wait in the spool for Kafka to come
     * back, up to {@link #SPOOL_WAIT} longer, so that RunFinished counts only what is really lost.
     */
    private PublishCounts awaitDelivery() {
        PublishCounts counts = publisher.flush(FLUSH_TIMEOUT);
        if (counts.spooled() > 0) {
            out.printf(
                    "Waiting up to %d s for Kafka to take the %d records kept on disk while it was away...%n",
                    SPOOL_WAIT.toSeconds(), counts.spooled());
            counts = publisher.flush(SPOOL_WAIT);
        }
        return counts;
    }

    /**
     * Publishes RunFinished and waits for Kafka to take it; a failed attempt is tried again while
     * {@link #FLUSH_TIMEOUT} lasts, because without this record the run has no summary. (A retry
     * after a lost acknowledgement may write it twice; the aggregator keeps one per shard.)
     */
    private CompletableFuture<Void> deliverRunFinished(RunEvent finished) {
        long deadlineNs = System.nanoTime() + FLUSH_TIMEOUT.toNanos();
        while (true) {
            CompletableFuture<Void> delivery = publisher.publishRun(finished, FLUSH_TIMEOUT);
            try {
                delivery.get(Math.max(0, deadlineNs - System.nanoTime()), TimeUnit.NANOSECONDS);
                return delivery;
            } catch (ExecutionException e) {
                if (System.nanoTime() > deadlineNs || Thread.currentThread().isInterrupted()) {
                    return delivery;
                }
                LOG.warn(
                        "the run's RunFinished record was not delivered to Kafka ({}); trying again",
                        e.getCause().getMessage());
            } catch (TimeoutException e) {
                return delivery;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return delivery;
            }
        }
    }

    /** "NAME (reason)" when the record's delivery failed or has not completed. */
    private static Optional<String> undelivered(String name, CompletableFuture<Void> delivery) {
        if (!delivery.isDone()) {
            return Optional.of(name + " (no acknowledgement from Kafka within " + FLUSH_TIMEOUT.toSeconds() + " s)");
        }
        if (delivery.isCompletedExceptionally()) {
            return Optional.of(name + " ("
                    + delivery.handle((ok, error) -> error.getMessage()).join() + ")");
        }
        return Optional.empty();
    }

    private static Map<String, Long> sortedByCount(Map<String, Long> reasons) {
        Map<String, Long> sorted = new LinkedHashMap<>();
        reasons.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> sorted.put(e.getKey(), e.getValue()));
        return sorted;
    }

    /**
     * The thread running a shard and whether a stop may still interrupt it: until the shard starts
     * finishing (publishing RunFinished, which must not be cut short), a stop interrupts it; after
     * that it does nothing. Thread-safe.
     */
    private static final class RunThread {
        private final Thread thread;
        private boolean finishing;

        RunThread(Thread thread) {
            this.thread = thread;
        }

        synchronized void stop() {
            if (!finishing) {
                thread.interrupt();
            }
        }

        /** No stop interrupts the thread any more; one that already did is cleared (the caller ran on the thread). */
        synchronized void finishing() {
            if (!finishing) {
                finishing = true;
                if (Thread.currentThread() == thread) {
                    Thread.interrupted();
                }
            }
        }
    }

    private static ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
