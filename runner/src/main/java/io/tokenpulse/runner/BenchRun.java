package io.tokenpulse.runner;

import io.tokenpulse.aggregator.report.ClientCpu;
import io.tokenpulse.aggregator.results.RunResults;
import io.tokenpulse.aggregator.results.StoredRun;
import io.tokenpulse.aggregator.scoring.RunScoring;
import io.tokenpulse.aggregator.scoring.ServerScoring;
import io.tokenpulse.producer.FirstTokenListener;
import io.tokenpulse.producer.GeneratorOptions;
import io.tokenpulse.producer.LoadGenerator;
import io.tokenpulse.producer.LoadResult;
import io.tokenpulse.producer.backend.Profiler;
import io.tokenpulse.producer.dataset.SampledRequest;
import io.tokenpulse.producer.publish.EventPublisher;
import io.tokenpulse.producer.publish.PublisherSettings;
import io.tokenpulse.producer.scrape.RunScrapes;
import io.tokenpulse.producer.scrape.ScrapeRecords;
import io.tokenpulse.producer.scrape.ServerScraper;
import io.tokenpulse.schemas.avro.RunSummary;
import io.tokenpulse.schemas.task.PoolingBackends;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.stream.Collectors;

/**
 * One benchmark run on a {@link BenchHost} (its pipeline, /metrics and in-process aggregator, shared
 * by every run of a sweep): {@link #run} opens the result reader and the publisher, sends the load,
 * reads the run-summary and request-metrics topics back, hands the {@link RunResult} to the caller's
 * printer while the run is still open (the profiler stops after the report, as vLLM's does), and says
 * why the run stopped. It is the one place that joins the load generator and the aggregator: those two
 * modules only meet through Kafka.
 */
public final class BenchRun implements AutoCloseable {

    /** Prints a run's result while the run is still open; an exception ends the run with it. */
    @FunctionalInterface
    public interface Printer {
        void print(RunResult result) throws IOException, InterruptedException;
    }

    /**
     * Where a run reports: its result, its progress and notes, and the signals' notes.
     *
     * @param printer prints the result while the run is still open
     * @param out where the run's progress and notes go
     * @param err where the signals' notes go
     */
    public record Console(Printer printer, PrintStream out, PrintStream err) {}

    /** How long reading a summary-less run's stored records may wait for them (they are there, or never come). */
    private static final Duration STORED_WAIT = Duration.ofSeconds(5);

    /** How long the chart waits for window updates committed after the summary (one commit interval, in practice). */
    public static final Duration CHART_WAIT = Duration.ofSeconds(10);

    private final RunPlan plan;
    private final BenchHost host;
    private final Pipeline pipeline;
    private final PrintStream out;
    private RunResults results;
    private EventPublisher publisher;
    private Profiler profiler;

    private BenchRun(RunPlan plan, BenchHost host, PrintStream out) {
        this.plan = plan;
        this.host = host;
        this.pipeline = host.pipeline();
        this.out = out;
    }

    /**
     * Runs {@code plan} on {@code host}: Ctrl-C or SIGTERM, or {@code early} when not null, stops the
     * load early (no new requests; those in flight may finish within the plan's drain time), and the
     * result covers what completed; the console's printer prints it.
     *
     * @param early stops the load when the server is past saturation (a sweep's search); may be null
     * @throws UserError when stopped before the first request was sent (with the signal's exit code), when
     *     no summary came and nothing was stored either, or when the sampled rows are unusable
     */
    public static RunOutcome run(RunPlan plan, BenchHost host, EarlyStop early, Console console)
            throws IOException, InterruptedException {
        PrintStream out = console.out();
        try (BenchRun run = BenchRun.start(plan, host, out);
                Interruption interruption =
                        Interruption.install(console.err(), plan.timeouts().drain())) {
            CompletableFuture<Object> stop = new CompletableFuture<>();
            interruption.stop().thenRun(() -> stop.complete(null));
            if (early != null) {
                early.stopped().thenAccept(reason -> {
                    out.println("Stopping early: " + reason + "; no new requests, those in flight may finish within "
                            + plan.timeouts().drain().toSeconds() + " s (--drain-timeout-s)");
                    stop.complete(null);
                });
            }
            RunResult result;
            try {
                result = run.execute(stop, early == null ? FirstTokenListener.NONE : early);
                if (early != null) {
                    early.close(); // the load is over: no later window may stop it
                }
            } catch (InterruptedException e) {
                throw new UserError(
                        "interrupted before the first request was sent: nothing to report",
                        interruption.exitCode(RunOutcome.INTERRUPTED));
            }
            console.printer().print(result);
            // a saturation stop is the point's finding, not an interruption
            boolean interrupted = result.load().interrupted();
            Optional<String> saturated =
                    early == null || interruption.interrupted() || !interrupted ? Optional.empty() : early.reason();
            StopReason reason = result.noSummary().isPresent()
                    ? StopReason.NO_SUMMARY
                    : saturated.isPresent()
                            ? StopReason.SATURATED
                            : interrupted ? StopReason.SIGNALLED : StopReason.COMPLETED;
            return new RunOutcome(reason, result, saturated, interruption.signalExitCode());
        }
    }

    /**
     * Starts everything the run needs before its first request on {@code host}: the reader of the
     * run's results, the publisher, and the profiler.
     */
    private static BenchRun start(RunPlan plan, BenchHost host, PrintStream out)
            throws IOException, InterruptedException {
        BenchRun run = new BenchRun(plan, host, out);
        try {
            run.open();
            return run;
        } catch (IOException | InterruptedException | RuntimeException e) {
            run.close();
            throw e;
        }
    }

    private void open() throws IOException, InterruptedException {
        // at the pipeline's priority, as every thread the reader and the publisher start
        host.priority().start(() -> {
            results = RunResults.open(
                    pipeline.topics(),
                    pipeline.clientProperties(),
                    plan.load().runId(),
                    Instant.now().minusSeconds(60),
                    plan.keepRequests());
            publisher = EventPublisher.open(publisherSettings(pipeline, plan), pipeline.topics());
            return publisher;
        });
        if (plan.profile()) {
            profiler = new Profiler(
                    plan.load().target().baseUrl(),
                    plan.load().target().apiKey(),
                    plan.load().target().insecure(),
                    out);
            profiler.start();
        }
    }

    /**
     * Sends the load and waits for the run's summary. Without one (records lost, the aggregator gone),
     * the run is scored from what the aggregator stored (request metrics, shard records) and marked
     * incomplete; with nothing stored either, it is a one-line failure saying why.
     *
     * @param stop completes when the run is to stop early (Ctrl-C): the load generator then drains and
     *     finishes the run, and the summary covers what completed
     * @param firstTokens told of each request's time to first token as it arrives (sweep's early stop)
     * @throws InterruptedException when stopped before the first request was sent
     */
    private RunResult execute(CompletionStage<?> stop, FirstTokenListener firstTokens) throws InterruptedException {
        // from here the pipeline yields to the timing threads; the scraper starts lowered
        host.priority().lowerForTheLoad();
        List<SampledRequest> samples;
        try {
            samples = LoadGenerator.sample(plan.load(), plan.dataset());
        } catch (IllegalArgumentException e) {
            // the sampled rows' images or clips are read before anything is sent: a broken one is the user's to fix
            throw UserError.usage(e.getMessage());
        }
        // after the draw: fitting a long trace's prompts took minutes of CPU that are not the run's
        ClientCpuMeter cpuMeter = ClientCpuMeter.start();
        LoadResult load;
        RunScrapes scrapes = startScrapes();
        try (ServerScraper scraper = scrapes == null ? null : scrapes.scraper()) {
            GeneratorOptions options = GeneratorOptions.defaults()
                    .withMeters(host.registry())
                    .withHttp(plan.timeouts().http())
                    .withStop(stop)
                    .withDrainTimeout(plan.timeouts().drain())
                    .withFirstTokens(firstTokens)
                    .withStartBarrier(new KafkaStartBarrier(
                            pipeline.clientProperties(),
                            pipeline.topics().shardBarrier(),
                            plan.load().runId(),
                            plan.timeouts().shardStart()))
                    // the shard takes the last scrape before its RunFinished, which announces the records
                    .withServerScrapes(scrapes);
            load = new LoadGenerator(publisher, plan.tokenizer(), out, options).run(plan.load(), samples);
        }
        // a pooling run streams no event: each request's one answer is what the client read and published
        ClientCpu cpu = cpuMeter.stop(
                PoolingBackends.contains(plan.load().target().backend()) ? load.started() : load.chunkEvents());
        host.aggregateAfterLoad(load.chunkEvents(), out);
        Optional<RunSummary> summary = results.awaitSummary(plan.timeouts().summary());
        if (summary.isEmpty()) {
            String why = noSummary(plan, pipeline, load);
            return scoredFromStore(load, cpu, why).orElseThrow(() -> UserError.failure(why));
        }
        host.summarized();
        return new RunResult(summary.get(), results.requests(), load, cpu, Optional.empty());
    }

    /** Scrapes the asked endpoints into the server-metrics topic from now to the end of the load; null when none. */
    private RunScrapes startScrapes() throws InterruptedException {
        List<URI> sources = plan.scrapes().sources();
        if (sources.isEmpty()) {
            return null;
        }
        ScrapeRecords records = new ScrapeRecords(plan.load().runId(), publisher::publishServerMetric);
        // the scraper's thread and HTTP client at the pipeline's priority: off the timing path
        return new RunScrapes(
                host.priority()
                        .start(() -> ServerScraper.start(
                                sources,
                                plan.scrapes().interval(),
                                plan.load().target().insecure(),
                                records,
                                host.registry())),
                records);
    }

    /** The run scored from its stored records, marked with what is missing; empty when not even a RunStarted is stored. */
    private Optional<RunResult> scoredFromStore(LoadResult load, ClientCpu cpu, String why) {
        String runId = plan.load().runId();
        StoredRun stored;
        try {
            stored = StoredRun.read(pipeline.topics(), pipeline.clientProperties(), runId, STORED_WAIT);
        } catch (IllegalArgumentException e) {
            return Optional.empty(); // no record of the run at all
        }
        return stored.storedShards().map(shards -> {
            RunSummary summary = RunScoring.summarizeIncomplete(
                    runId,
                    shards,
                    stored.requests(),
                    RunScoring.Options.storedIn(runId, shards.config()),
                    stored.missing().orElse("the run summary"));
            summary.setServer(
                    ServerScoring.section(stored.serverMetrics(), summary.getMetrics(), shards.scheduleStartEpochNs()));
            List<Integer> lost = shards.missingShards();
            return new RunResult(
                    summary,
                    stored.requests(),
                    load,
                    cpu,
                    Optional.of(lost.isEmpty() ? why : shardsLost(runId, lost, shards.shardCount())));
        });
    }

    /** Why a run of several shards has no summary when some of them never finished: those shards, named. */
    private String shardsLost(String runId, List<Integer> lost, int shardCount) {
        String shards = lost.stream().map(String::valueOf).collect(Collectors.joining(", "));
        return "run " + runId + " is incomplete: shard" + (lost.size() == 1 ? " " : "s ") + shards + " of " + shardCount
                + " did not finish (no RunFinished within "
                + plan.timeouts().summary().toSeconds()
                + " s after this shard's last response: killed mid-run, or cut off from Kafka)";
    }

    /** After the report: stops the profiler (vLLM stops it after printing), then closes what {@link #start} opened. */
    @Override
    public void close() {
        try {
            if (profiler != null) {
                profiler.stop();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            Closing.all(publisher, results);
        }
    }

    /** Why there is no summary, as precisely as the load generator knows it. */
    private static String noSummary(RunPlan plan, Pipeline pipeline, LoadResult load) {
        String undelivered = load.recordsNotDelivered() + " records not delivered to Kafka"
                + (load.notDeliveredByReason().isEmpty() ? "" : " " + load.notDeliveredByReason());
        String cause;
        if (!load.lostRunRecords().isEmpty()) {
            cause = "the run's " + String.join(" and ", load.lostRunRecords())
                    + " did not reach Kafka, so no aggregator" + " can complete it";
        } else if (pipeline.embedded()) {
            cause = "the in-process aggregator fell behind or failed";
        } else {
            cause = "is 'tokenpulse aggregate' running against " + pipeline.bootstrapServers() + "?";
        }
        return "no run summary for run " + plan.load().runId() + " within "
                + plan.timeouts().summary().toSeconds() + " s after the last response (" + load.started()
                + " requests sent, " + undelivered + "); " + cause;
    }

    /** The publisher's settings with the user's --kafka-property values; a setting that cannot work is a usage error. */
    private static PublisherSettings publisherSettings(Pipeline pipeline, RunPlan plan) {
        try {
            return PublisherSettings.of(pipeline.bootstrapServers())
                    .withOverrides(stringMap(pipeline))
                    .withSpool(plan.spool().dir(), plan.spool().maxBytes())
                    .withChunkRecords(plan.chunkRecords());
        } catch (IllegalArgumentException e) {
            throw UserError.usage(e.getMessage());
        }
    }

    private static Map<String, String> stringMap(Pipeline pipeline) {
        return pipeline.clientProperties().entrySet().stream()
                .filter(e -> !e.getKey().equals("bootstrap.servers"))
                .collect(Collectors.toMap(e -> String.valueOf(e.getKey()), e -> String.valueOf(e.getValue())));
    }
}
