package io.tokenpulse.producer;

import io.tokenpulse.producer.backend.Backend;
import io.tokenpulse.producer.backend.BackendSettings;
import io.tokenpulse.producer.console.Progress;
import io.tokenpulse.producer.health.ClientHealth;
import io.tokenpulse.producer.http.StreamRequest;
import io.tokenpulse.producer.http.StreamingHttpClient;
import io.tokenpulse.producer.publish.EventPublisher;
import io.tokenpulse.tokenizers.Tokenizer;
import java.io.PrintStream;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One shard's run from the schedule start to RunFinished: anchors the start and publishes RunStarted,
 * sends the plan through a {@link Dispatcher}, lets the requests in flight end ({@link Drain}) and
 * hands the counts to {@link RunEnd}.
 *
 * <p>The timing path is the {@link Dispatcher.Launch} built here: it counts the request, stamps the
 * send and hands the request to the HTTP client; it touches only lock-free counters and never waits
 * on Kafka (records go to the publisher's bounded queue), on disk or on a lock.
 *
 * <p>Threading: {@link #sendAll} runs on the shard's own thread (the scheduler); what the requests
 * do when they end runs on the I/O threads.
 */
final class ShardRun {

    /**
     * What every run of one generator uses.
     *
     * @param publisher an open publisher (the caller closes it)
     * @param tokenizer counts output tokens when the server reports none
     * @param out where vLLM's pre-run lines, the progress bar and the lateness line go
     * @param options the generator's options
     */
    record Parts(EventPublisher publisher, Tokenizer tokenizer, PrintStream out, GeneratorOptions options) {}

    private final Parts parts;
    private final LoadSettings settings;
    private final StreamingHttpClient client;
    private final Backend backend;
    private final ExecutorService counting;
    private final RunTally tally = new RunTally();

    /** @param counting runs the counting of output tokens off the I/O threads */
    ShardRun(
            Parts parts, LoadSettings settings, StreamingHttpClient client, Backend backend, ExecutorService counting) {
        this.parts = parts;
        this.settings = settings;
        this.client = client;
        this.backend = backend;
        this.counting = counting;
    }

    /**
     * Sends the plan, waits for its requests, publishes RunFinished; a stop or an interrupt of the
     * thread ends the sending, not the run.
     *
     * @param warmConnections connections open in the pool now, for the result
     * @param thread this thread, told when the run starts finishing (no stop may cut that short)
     * @param clock this shard's clock against the broker's, for its RunStarted, when the start barrier measured it
     */
    LoadResult sendAll(SendPlan plan, int warmConnections, RunThread thread, Optional<ClockOffset> clock) {
        try (ClientHealth health = ClientHealth.register(
                parts.options().meters(),
                settings.runId(),
                settings.target().model(),
                settings.target().backend(),
                settings.shardIndex(),
                parts.publisher()::counts)) {
            return sendAll(plan, warmConnections, thread, clock, health);
        }
    }

    /** The first turn of a session, built now; sending it opens the session. */
    private static Dispatcher.Launch openSession(
            Session session, PlannedRequest request, ClientLag lag, Anchor anchor, ClientHealth health) {
        StreamRequest http = session.firstTurn();
        return permitNs -> {
            long launchedNs = System.nanoTime();
            health.requestSent(anchor.startNs() + request.offsetNs(), launchedNs);
            lag.record(anchor.startNs() + request.offsetNs(), permitNs, launchedNs);
            session.open(http, permitNs, launchedNs);
        };
    }

    private LoadResult sendAll(
            SendPlan plan, int warmConnections, RunThread thread, Optional<ClockOffset> clock, ClientHealth health) {
        LoadSettings.Workload workload = settings.workload();
        BackendSettings backendSettings = settings.target().backendSettings();
        String[] models = workload.requestModels();
        Dispatcher dispatcher = new Dispatcher(Ticker.SYSTEM, workload.maxConcurrency());
        SendLateness lateness = plan.ownTimes() ? new SendLateness(plan.plannedSize()) : null;
        ClientLag lag = new ClientLag(!plan.ownTimes()
                && workload.arrivals().rampUp() == null
                && Double.isInfinite(workload.arrivals().requestRate()));
        StreamingHttpClient.IoCpu ioBefore = client.ioCpu();
        PrintStream out = parts.out();
        EventPublisher publisher = parts.publisher();
        LoadResult result;
        try (Progress progress = Progress.start(out, plan.plannedSize(), settings.disableProgress())) {
            Anchor anchor = Anchor.now();
            CompletableFuture<Void> started = publisher.publishRun(
                    RunRecords.started(settings, anchor, plan.plannedSize(), plan.rpsSteps(), clock),
                    RunEnd.FLUSH_TIMEOUT);
            RunContext run = new RunContext(
                    settings.runId(),
                    settings.shardIndex(),
                    anchor,
                    publisher.countingChunks(health::chunkPublished),
                    tally,
                    parts.tokenizer(),
                    counting,
                    settings.keepGeneratedText(),
                    () -> {
                        health.requestFinished();
                        progress.step();
                    },
                    index -> models == null ? backendSettings.model() : models[index % models.length],
                    parts.options().firstTokens(),
                    backend::inputAudioSeconds);
            long endNs = workload.durationMinutes() == null ? Long.MAX_VALUE : anchor.startNs() + workload.durationNs();
            boolean interrupted = false;
            SessionParts sessions = plan.sessions()
                    ? new SessionParts(
                            run,
                            client,
                            backend,
                            backendSettings,
                            settings,
                            workload.sessions(),
                            Executors.newSingleThreadScheduledExecutor(LoadGenerator.daemon("tp-session-turns")),
                            health,
                            dispatcher::releasePermit,
                            models == null ? null : index -> models[index % models.length],
                            new AtomicBoolean())
                    : null;
            // probes hold no permit and move no progress bar: their end only leaves the tally
            RunContext probeRun = new RunContext(
                    run.runId(),
                    run.shardIndex(),
                    anchor,
                    run.sink(),
                    tally,
                    parts.tokenizer(),
                    counting,
                    false,
                    () -> {},
                    index -> backendSettings.model(),
                    FirstTokenListener.NONE,
                    backend::inputAudioSeconds);
            ProbeSender probes = workload.probeRequestRate() == null
                    ? null
                    : new ProbeSender(workload.probeRequestRate(), anchor.startNs(), settings.shardIndex(), probe -> {
                        String requestId = "probe-" + settings.requestId(probe.index());
                        StreamRequest http =
                                StreamRequests.of(backend, backendSettings, requestId, probe.sample(), null);
                        tally.probeStarted();
                        long launchedNs = System.nanoTime();
                        client.send(
                                http,
                                new RequestStream(
                                        probeRun,
                                        backend.newResponse(),
                                        probe,
                                        requestId,
                                        Dispatcher.NO_LIMIT,
                                        launchedNs,
                                        (outcome, endNs1) -> {},
                                        true));
                    });
            Drain drain;
            boolean drained;
            try {
                try {
                    // a request the plan does not send was never in flight: its end only moves the progress bar
                    RunContext notSentRun = run.endingWith(progress::step);
                    plan.start(anchor.startNs(), (request, reason) -> {
                        tally.requestStarted();
                        long nowNs = System.nanoTime();
                        new RequestStream(
                                        notSentRun,
                                        backend.newResponse(),
                                        request,
                                        settings.requestId(request.index()),
                                        Dispatcher.NO_LIMIT,
                                        nowNs,
                                        plan.watching(request, (outcome, endNs1) -> {}),
                                        false)
                                .notSent(reason, nowNs);
                    });
                    dispatcher.run(anchor.startNs(), endNs, plan, request -> {
                        if (request.sample().conversation() != null) {
                            return openSession(new Session(sessions, request), request, lag, anchor, health);
                        }
                        String requestId = settings.requestId(request.index());
                        StreamRequest http = StreamRequests.of(
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
                                            run,
                                            backend.newResponse(),
                                            request,
                                            requestId,
                                            permitNs,
                                            launchedNs,
                                            plan.watching(request, (outcome, endNs1) -> dispatcher.releasePermit()),
                                            false));
                        };
                    });
                } catch (InterruptedException e) {
                    interrupted = true;
                }
                if (sessions != null && interrupted) {
                    sessions.stopped().set(true); // no session sends another turn
                }
                tally.sendingEnded();
                drain = new Drain(tally, parts.options().drainTimeout(), settings.runId(), interrupted);
                drained = drain.awaitInFlight();
            } finally {
                if (probes != null) {
                    // probes go on through the drain: how the load's tail slows a light request is theirs to show
                    probes.close();
                }
                tally.probesStopped();
            }
            // after a drain that timed out, the probes in flight are cancelled with the rest at once
            boolean probesEnded = drained && drain.awaitProbes();
            double ioBusy = client.ioCpu().busiestShareSince(ioBefore);
            if (!drained || !probesEnded) {
                client.close(); // fails every request in flight, so each still gets its RequestFinished
                drain.awaitCancelled();
            }
            if (sessions != null) {
                sessions.stopped().set(true);
                sessions.turns().shutdownNow();
            }
            // From here on a stop no longer interrupts: RunFinished must be published.
            thread.finishing();
            RunEnd end = new RunEnd(publisher, out, settings, parts.options().serverScrapes());
            result = end.finish(
                    anchor,
                    started,
                    tally,
                    new RunEnd.Sending(drain.interrupted(), lag.p99Ms(), ioBusy, warmConnections));
        }
        if (lateness != null) {
            out.println(lateness.line());
        }
        return result;
    }
}
