package io.tokenpulse.producer;

import io.tokenpulse.producer.backend.Backend;
import io.tokenpulse.producer.backend.BackendSettings;
import io.tokenpulse.producer.backend.Backends;
import io.tokenpulse.producer.backend.HttpCall;
import io.tokenpulse.producer.backend.PromptRequest;
import io.tokenpulse.producer.backend.RequestOutcome;
import io.tokenpulse.producer.dataset.Datasets;
import io.tokenpulse.producer.dataset.Prompt;
import io.tokenpulse.producer.dataset.SampledRequest;
import io.tokenpulse.producer.http.HttpClientSettings;
import io.tokenpulse.producer.http.StreamRequest;
import io.tokenpulse.producer.http.StreamingHttpClient;
import io.tokenpulse.producer.publish.EventPublisher;
import io.tokenpulse.producer.publish.PublishCounts;
import io.tokenpulse.schemas.avro.Chunk;
import io.tokenpulse.schemas.avro.RequestEvent;
import io.tokenpulse.schemas.avro.RunEvent;
import io.tokenpulse.schemas.avro.RunFinished;
import io.tokenpulse.schemas.avro.RunStarted;
import io.tokenpulse.schemas.python.PythonFloat;
import io.tokenpulse.tokenizers.Tokenizer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tokenpulse.producer.health.ClientHealth;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one load-generator shard of a benchmark the way vLLM's serving benchmark runs, while
 * publishing every request's and every streamed event's timing to Kafka.
 *
 * <p>In order: sample the dataset; wait for {@code <base url>/health}; send the initial single
 * prompt test run (dataset request 0; not counted, not published; its failure stops the run);
 * print vLLM's traffic lines; start the progress bar; anchor the schedule start and publish
 * RunStarted; send each request at {@code start + offset} from a scheduler that never waits on
 * responses (only on {@code --max-concurrency} permits); publish RequestStarted, one Chunk per
 * timing event from the I/O thread, and RequestFinished; once every request finished, flush
 * Kafka for at most {@link #FLUSH_TIMEOUT} and publish RunFinished with the counts.
 *
 * <p>Timing never waits on Kafka: publishing only appends to the producer's bounded buffer, and
 * what cannot be delivered is counted ({@link LoadResult#recordsNotDelivered()}). Server errors
 * are failed requests with reasons, never an exception. Only counters outlive a finished
 * request, so memory stays bounded in duration mode.
 */
public final class LoadGenerator {

    /** How long an interrupted run waits for its cancelled requests to report their end. */
    static final Duration CANCEL_TIMEOUT = Duration.ofSeconds(10);
    /** How long the end of a run waits for Kafka to acknowledge what it was given. */
    static final Duration FLUSH_TIMEOUT = Duration.ofSeconds(30);

    private static final Logger LOG = LoggerFactory.getLogger(LoadGenerator.class);

    private LoadGenerator() {
    }

    /**
     * Runs the shard described by {@code settings} and returns its counts. Prints vLLM's
     * pre-run lines and the progress bar to {@code out}; logs nothing secret.
     *
     * @param publisher an open publisher; left open (the caller closes it)
     * @param tokenizer the tokenizer named by {@code settings.workload().tokenizerId()}
     * @throws IllegalArgumentException when the dataset cannot be built from the settings
     * @throws IllegalStateException when the server is not ready within the readiness timeout, or
     *     the initial test run fails (vLLM's message, with the error)
     * @throws InterruptedException when interrupted; requests in flight are then cancelled, and
     *     RunFinished is still published
     */
    public static LoadResult run(LoadSettings settings, EventPublisher publisher, Tokenizer tokenizer, PrintStream out)
            throws InterruptedException {
        return run(settings, publisher, tokenizer, out, new SimpleMeterRegistry());
    }

    /**
     * As {@link #run(LoadSettings, EventPublisher, Tokenizer, PrintStream)}, exposing the client's
     * health (schedule lag, requests in flight, chunk and publisher counts) in {@code registry}.
     */
    public static LoadResult run(LoadSettings settings, EventPublisher publisher, Tokenizer tokenizer, PrintStream out,
                                 MeterRegistry registry) throws InterruptedException {
        return run(settings, publisher, tokenizer, out, HttpClientSettings.defaults(), registry);
    }

    static LoadResult run(LoadSettings settings, EventPublisher publisher, Tokenizer tokenizer, PrintStream out,
                          HttpClientSettings httpSettings) throws InterruptedException {
        return run(settings, publisher, tokenizer, out, httpSettings, new SimpleMeterRegistry());
    }

    private static LoadResult run(LoadSettings settings, EventPublisher publisher, Tokenizer tokenizer,
                                  PrintStream out, HttpClientSettings httpSettings, MeterRegistry registry)
            throws InterruptedException {
        LoadSettings.Workload workload = settings.workload();
        Backend backend = Backends.get(settings.target().backend());
        BackendSettings backendSettings = settings.target().backendSettings();
        // Sampled before anything is timed, as vLLM does.
        List<SampledRequest> samples = Datasets.create(workload.dataset(), tokenizer)
                .sample(workload.numPrompts(), workload.arrivals().seed());

        HealthCheck.awaitReady(settings.target().healthUrl(), settings.readinessTimeout(), out);
        ExecutorService counting = Executors.newSingleThreadExecutor(daemon("tp-token-count"));
        try (StreamingHttpClient client = new StreamingHttpClient(httpSettings)) {
            testRun(client, backend, backendSettings, samples.get(0), settings.requestIdPrefix(), out);
            printTraffic(workload, out);
            Shard shard = new Shard(settings.shardIndex(), settings.shardCount());
            RequestPlan plan = workload.durationMinutes() == null
                    ? RequestPlan.fixed(workload.arrivals(), shard, samples)
                    : RequestPlan.forDuration(workload.arrivals(), workload.durationNs(), shard, samples);
            samples = null; // the plan holds what is still to send
            try (ClientHealth health = ClientHealth.register(registry, settings.runId(), settings.target().model(),
                    settings.target().backend(), settings.shardIndex(), publisher::counts)) {
                return sendAll(settings, plan, client, backend, backendSettings, publisher, tokenizer, counting, out,
                        health);
            }
        } finally {
            counting.shutdownNow();
        }
    }

    /** vLLM's initial single prompt test run, with vLLM's messages. */
    private static void testRun(StreamingHttpClient client, Backend backend, BackendSettings backendSettings,
                                SampledRequest sample, String requestIdPrefix, PrintStream out)
            throws InterruptedException {
        out.println("Starting initial single prompt test run...");
        ProbeRequest probe = new ProbeRequest(backend.newResponse());
        // vLLM sends the test request without a request id; one is required here, so it gets a
        // name that cannot be mistaken for a request index.
        client.send(streamRequest(backend.buildRequest(backendSettings,
                promptRequest(requestIdPrefix + "test", sample))),
                probe);
        RequestOutcome outcome;
        try {
            outcome = probe.outcome().get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("the initial test run failed unexpectedly: " + e.getCause(), e.getCause());
        }
        if (!outcome.success()) {
            throw new IllegalStateException("Initial test run failed - Please make sure benchmark arguments are"
                    + " correctly specified. Error: " + outcome.error());
        }
        out.println("Initial test run completed. Starting main benchmark run...");
    }

    private static void printTraffic(LoadSettings.Workload workload, PrintStream out) {
        var arrivals = workload.arrivals();
        if (arrivals.rampUp() != null) {
            out.println("Traffic ramp-up strategy: " + arrivals.rampUp().strategy().name().toLowerCase() + ".");
            // vLLM's ramp-up flags are ints: a whole rate prints without ".0".
            out.println("Will increase RPS from " + PythonFloat.intOrRepr(arrivals.rampUp().startRps()) + " to "
                    + PythonFloat.intOrRepr(arrivals.rampUp().endRps()) + " RPS over the duration of the benchmark.");
        } else {
            out.println("Traffic request rate: " + PythonFloat.repr(arrivals.requestRate()));
        }
        out.println("Burstiness factor: " + PythonFloat.repr(arrivals.burstiness()) + " ("
                + (arrivals.burstiness() == 1.0 ? "Poisson process" : "Gamma distribution") + ")");
        out.println("Maximum request concurrency: "
                + (workload.maxConcurrency() == null ? "None" : workload.maxConcurrency()));
        if (workload.durationMinutes() != null) {
            out.println("Benchmark duration: " + PythonFloat.repr(workload.durationMinutes()) + " minutes");
        }
    }

    private static LoadResult sendAll(LoadSettings settings, RequestPlan plan, StreamingHttpClient client,
                                      Backend backend, BackendSettings backendSettings, EventPublisher publisher,
                                      Tokenizer tokenizer, ExecutorService counting, PrintStream out,
                                      ClientHealth health) throws InterruptedException {
        LoadSettings.Workload workload = settings.workload();
        RunTally tally = new RunTally();
        Dispatcher dispatcher = new Dispatcher(Ticker.SYSTEM, workload.maxConcurrency());
        try (Progress progress = Progress.start(out, plan.plannedSize(), settings.disableProgress())) {
            Anchor anchor = Anchor.now();
            CompletableFuture<Void> started = publisher.publishRun(runStarted(settings, anchor, plan.plannedSize()),
                    FLUSH_TIMEOUT);
            RunContext run = new RunContext(settings.runId(), settings.shardIndex(), anchor, sink(publisher, health),
                    tally, tokenizer, counting, settings.keepGeneratedText(), () -> {
                        dispatcher.releasePermit();
                        health.requestFinished();
                        progress.step();
                    });
            long endNs = workload.durationMinutes() == null ? Long.MAX_VALUE : anchor.startNs() + workload.durationNs();
            try {
                dispatcher.run(anchor.startNs(), endNs, plan, request -> {
                    String requestId = settings.requestId(request.index());
                    StreamRequest http = streamRequest(backend.buildRequest(backendSettings,
                            promptRequest(requestId, request.sample())));
                    return permitNs -> {
                        tally.requestStarted();
                        long launchedNs = System.nanoTime();
                        health.requestSent(anchor.startNs() + request.offsetNs(), launchedNs);
                        client.send(http, new RequestStream(run, backend.newResponse(), request, requestId,
                                permitNs, launchedNs));
                    };
                });
                tally.sendingEnded();
                awaitAll(tally);
            } catch (InterruptedException e) {
                LOG.warn("run {} interrupted: cancelling the requests in flight", settings.runId());
                tally.sendingEnded();
                client.close(); // fails every request in flight, so each still gets its RequestFinished
                if (!awaitAll(tally, CANCEL_TIMEOUT)) {
                    LOG.warn("run {}: {} requests did not end within {} of being cancelled; counted as failed"
                            + " without a RequestFinished record", settings.runId(), tally.unfinished(), CANCEL_TIMEOUT);
                }
                Thread.currentThread().interrupt();
            }
            return finish(settings, anchor, tally, publisher, started);
        }
    }

    /** Waits for every request's RequestFinished; an interrupt meanwhile is remembered, not obeyed. */
    private static void awaitAll(RunTally tally) {
        awaitAll(tally, null);
    }

    /** As {@link #awaitAll(RunTally)}, for at most {@code timeout} (null: no limit); false when it ran out. */
    private static boolean awaitAll(RunTally tally, Duration timeout) {
        long deadlineNs = timeout == null ? 0 : System.nanoTime() + timeout.toNanos();
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    if (timeout == null) {
                        tally.allFinished().get();
                    } else {
                        tally.allFinished().get(Math.max(0, deadlineNs - System.nanoTime()), TimeUnit.NANOSECONDS);
                    }
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

    private static LoadResult finish(LoadSettings settings, Anchor anchor, RunTally tally, EventPublisher publisher,
                                     CompletableFuture<Void> started) {
        long lastNs = tally.lastFinishedNs(anchor.startNs());
        RunTally.Counts counts = tally.counts();
        PublishCounts beforeFinish = publisher.flush(FLUSH_TIMEOUT);
        RunEvent finished = event(settings, RunFinished.newBuilder()
                .setFinishedEpochNs(anchor.epochNs(lastNs))
                .setRequestsStarted(counts.started())
                .setRequestsSucceeded(counts.succeeded())
                .setRequestsFailed(counts.failed())
                .setChunkEvents(counts.chunkEvents())
                .setRecordsNotDelivered(beforeFinish.notDelivered())
                .setRecordsNotDeliveredByReason(beforeFinish.failedByReason())
                .build());
        List<String> lost = new ArrayList<>();
        undelivered("RunStarted", started).ifPresent(lost::add);
        undelivered("RunFinished", deliverRunFinished(publisher, finished)).ifPresent(lost::add);
        PublishCounts delivery = publisher.flush(FLUSH_TIMEOUT);
        if (delivery.notDelivered() > 0) {
            LOG.warn("run {}: {} records were not delivered to Kafka: {}", settings.runId(), delivery.notDelivered(),
                    delivery.failed());
        }
        return new LoadResult(counts.started(), counts.succeeded(), counts.failed(), counts.chunkEvents(),
                delivery.notDelivered(), delivery.failedByReason(), lost, sortedByCount(counts.failureReasons()),
                anchor.startEpochNs(), anchor.offsetNs(lastNs));
    }

    /**
     * Publishes RunFinished and waits for Kafka to take it; a failed attempt is tried again while
     * {@link #FLUSH_TIMEOUT} lasts, because without this record the run has no summary. (A retry
     * after a lost acknowledgement may write it twice; the aggregator keeps one per shard.)
     */
    private static CompletableFuture<Void> deliverRunFinished(EventPublisher publisher, RunEvent finished) {
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
                LOG.warn("the run's RunFinished record was not delivered to Kafka ({}); trying again",
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
            return Optional.of(name + " (" + delivery.handle((ok, error) -> error.getMessage()).join() + ")");
        }
        return Optional.empty();
    }

    private static RunEvent runStarted(LoadSettings settings, Anchor anchor, int plannedSize) {
        LoadSettings.Target target = settings.target();
        LoadSettings.Workload workload = settings.workload();
        LoadSettings.Reporting reporting = settings.reporting();
        return event(settings, RunStarted.newBuilder()
                .setScheduleStartEpochNs(anchor.startEpochNs())
                .setBackend(target.backend())
                .setModelId(target.model())
                .setTokenizerId(workload.tokenizerId())
                .setEndpointUrl(target.endpointUrl().toString())
                .setNumPrompts(plannedSize < 0 ? null : plannedSize)
                .setRequestRate(workload.arrivals().requestRate())
                .setBurstiness(workload.arrivals().burstiness())
                .setMaxConcurrency(workload.maxConcurrency())
                .setPercentileMetrics(reporting.percentileMetrics())
                .setMetricPercentiles(reporting.metricPercentiles())
                .setGoodput(reporting.goodput())
                .setConfigJson(reporting.configJson())
                .setTokenpulseVersion(version())
                .build());
    }

    private static RunEvent event(LoadSettings settings, Object startedOrFinished) {
        return RunEvent.newBuilder()
                .setRunId(settings.runId())
                .setShardIndex(settings.shardIndex())
                .setShardCount(settings.shardCount())
                .setEvent(startedOrFinished)
                .build();
    }

    private static RecordSink sink(EventPublisher publisher, ClientHealth health) {
        return new RecordSink() {
            @Override
            public void publishRequest(RequestEvent event) {
                publisher.publishRequest(event);
            }

            @Override
            public void publishChunk(Chunk chunk) {
                publisher.publishChunk(chunk);
                health.chunkPublished();
            }
        };
    }

    private static StreamRequest streamRequest(HttpCall call) {
        Map<String, String> headers = new LinkedHashMap<>();
        call.headers().forEach(h -> headers.put(h.name(), h.value()));
        return new StreamRequest(call.uri(), headers, call.body());
    }

    /** What the backend sends; chat prompts are one user message (see {@code PromptStyle}), maybe with images. */
    private static PromptRequest promptRequest(String requestId, SampledRequest sample) {
        if (sample.prompt() instanceof Prompt.Text text) {
            return new PromptRequest(requestId, text.text(), sample.expectedOutputLen());
        }
        Prompt.Chat chat = (Prompt.Chat) sample.prompt();
        String text = chat.messages().stream().map(m -> m.content()).collect(Collectors.joining("\n"));
        return new PromptRequest(requestId, text, sample.expectedOutputLen(), chat.imageUrls());
    }

    private static Map<String, Long> sortedByCount(Map<String, Long> reasons) {
        Map<String, Long> sorted = new LinkedHashMap<>();
        reasons.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> sorted.put(e.getKey(), e.getValue()));
        return sorted;
    }

    private static String version() {
        String version = LoadGenerator.class.getPackage().getImplementationVersion();
        return version == null ? "development build" : version;
    }

    private static ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
