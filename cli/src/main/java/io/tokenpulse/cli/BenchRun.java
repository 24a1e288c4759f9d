package io.tokenpulse.cli;

import io.tokenpulse.aggregator.metrics.GoodputSlo;
import io.tokenpulse.aggregator.report.ClientCpu;
import io.tokenpulse.aggregator.results.RunResults;
import io.tokenpulse.aggregator.results.StoredRun;
import io.tokenpulse.aggregator.scoring.RunScoring;
import io.tokenpulse.aggregator.scoring.ServerScoring;
import io.tokenpulse.producer.FirstTokenListener;
import io.tokenpulse.producer.GeneratorOptions;
import io.tokenpulse.producer.LoadGenerator;
import io.tokenpulse.producer.LoadResult;
import io.tokenpulse.producer.LoadSettings;
import io.tokenpulse.producer.backend.Profiler;
import io.tokenpulse.producer.dataset.Dataset;
import io.tokenpulse.producer.dataset.SampledRequest;
import io.tokenpulse.producer.publish.EventPublisher;
import io.tokenpulse.producer.publish.PublisherSettings;
import io.tokenpulse.producer.scrape.RunScrapes;
import io.tokenpulse.producer.scrape.ScrapeRecords;
import io.tokenpulse.producer.scrape.ServerScraper;
import io.tokenpulse.schemas.avro.RequestMetrics;
import io.tokenpulse.schemas.avro.RunSummary;
import io.tokenpulse.tokenizers.Tokenizer;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.stream.Collectors;

/**
 * One {@code tokenpulse bench} run on a {@link BenchHost} (its pipeline, /metrics and in-process
 * aggregator, shared by every run of a sweep): {@link #start} opens the result reader and the
 * publisher; {@link #execute} sends the load and returns the {@link Result} read back from the
 * run-summary and request-metrics topics; the caller prints it, then closes the run. It lives in {@code cli} because
 * it is the one place that may join the load generator and the aggregator: those two modules only
 * meet through Kafka.
 */
final class BenchRun implements AutoCloseable {

    /**
     * What the run does beyond the load itself.
     *
     * @param load the load generator's settings (the target is already final, e.g. the simulator's URL)
     * @param dataset the dataset built from {@code load}'s dataset options (read once, when the options were checked)
     * @param goodput parsed --goodput SLOs (already validated)
     * @param report whether and where to save the result file
     * @param summaryTimeout how long to wait for the summary after the last response
     * @param chart where --save-chart writes the run's PNG chart, or null
     * @param html where --report writes the run's HTML report, or null
     * @param profile --profile: POST /start_profile before the load and /stop_profile after the report
     * @param timeouts the request, stream-idle and drain limits
     * @param serverMetrics which Prometheus endpoints to scrape during the run (none unless asked)
     */
    record Plan(
            LoadSettings load,
            Dataset dataset,
            GoodputSlo goodput,
            RunReport.ResultOptions report,
            Duration summaryTimeout,
            Path chart,
            Path html,
            boolean profile,
            SpoolOptions spool,
            TimeoutOptions timeouts,
            ServerMetricsOptions serverMetrics) {}

    /**
     * What the run produced, for the command to print: the summary and request metrics as the
     * aggregator wrote them, the load generator's own counts, and this process's CPU.
     *
     * @param summary the run's summary, with its server section when it scraped --server-metrics/--scrape-url
     * @param noSummary why the aggregator's summary did not come, when {@code summary} was instead scored
     *     from what it stored (then marked incomplete); empty for a whole run
     */
    record Result(
            RunSummary summary,
            List<RequestMetrics> requests,
            LoadResult load,
            ClientCpu cpu,
            Optional<String> noSummary) {}

    /** How long reading a summary-less run's stored records may wait for them (they are there, or never come). */
    private static final Duration STORED_WAIT = Duration.ofSeconds(5);

    /** How long the chart waits for window updates committed after the summary (one commit interval, in practice). */
    static final Duration CHART_WAIT = Duration.ofSeconds(10);

    private final Plan plan;
    private final BenchHost host;
    private final Pipeline pipeline;
    private final PrintStream out;
    private RunResults results;
    private EventPublisher publisher;
    private Profiler profiler;

    private BenchRun(Plan plan, BenchHost host, PrintStream out) {
        this.plan = plan;
        this.host = host;
        this.pipeline = host.pipeline();
        this.out = out;
    }

    /**
     * Starts everything the run needs before its first request on {@code host}: the reader of the
     * run's results, the publisher, and the profiler.
     */
    static BenchRun start(Plan plan, BenchHost host, PrintStream out) throws IOException, InterruptedException {
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
                    // --report's timeline needs every request's send time, as --save-detailed's lists do
                    plan.report().detailed() || plan.html() != null);
            publisher = EventPublisher.open(publisherSettings(pipeline, plan.spool()), pipeline.topics());
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
    Result execute(Tokenizer tokenizer, CompletionStage<?> stop, FirstTokenListener firstTokens)
            throws InterruptedException {
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
                    // the shard takes the last scrape before its RunFinished, which announces the records
                    .withServerScrapes(scrapes);
            load = new LoadGenerator(publisher, tokenizer, out, options).run(plan.load(), samples);
        }
        ClientCpu cpu = cpuMeter.stop(load.chunkEvents());
        host.aggregateAfterLoad(load.chunkEvents(), out);
        Optional<RunSummary> summary = results.awaitSummary(plan.summaryTimeout());
        if (summary.isEmpty()) {
            String why = noSummary(plan, pipeline, load);
            return scoredFromStore(load, cpu, why).orElseThrow(() -> UserError.failure(why));
        }
        host.summarized();
        return new Result(summary.get(), results.requests(), load, cpu, Optional.empty());
    }

    /** Scrapes the asked endpoints into the server-metrics topic from now to the end of the load; null when none. */
    private RunScrapes startScrapes() throws InterruptedException {
        List<URI> sources = plan.serverMetrics().sources(plan.load().target().baseUrl());
        if (sources.isEmpty()) {
            return null;
        }
        ScrapeRecords records = new ScrapeRecords(plan.load().runId(), publisher::publishServerMetric);
        // the scraper's thread and HTTP client at the pipeline's priority: off the timing path
        return new RunScrapes(
                host.priority()
                        .start(() -> ServerScraper.start(
                                sources,
                                plan.serverMetrics().interval(),
                                plan.load().target().insecure(),
                                records,
                                host.registry())),
                records);
    }

    /** The run scored from its stored records, marked with what is missing; empty when not even a RunStarted is stored. */
    private Optional<Result> scoredFromStore(LoadResult load, ClientCpu cpu, String why) {
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
            return new Result(summary, stored.requests(), load, cpu, Optional.of(why));
        });
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
            closeAll(publisher, results);
        }
    }

    static void closeAll(AutoCloseable... resources) {
        RuntimeException failure = null;
        for (AutoCloseable resource : resources) {
            if (resource == null) {
                continue;
            }
            try {
                resource.close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = e instanceof RuntimeException r ? r : new IllegalStateException(e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** Why there is no summary, as precisely as the load generator knows it. */
    private static String noSummary(Plan plan, Pipeline pipeline, LoadResult load) {
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
                + plan.summaryTimeout().toSeconds() + " s after the last response (" + load.started()
                + " requests sent, " + undelivered + "); " + cause;
    }

    /** The publisher's settings with the user's --kafka-property values; a setting that cannot work is a usage error. */
    private static PublisherSettings publisherSettings(Pipeline pipeline, SpoolOptions spool) {
        try {
            return spool.applyTo(
                    PublisherSettings.of(pipeline.bootstrapServers()).withOverrides(stringMap(pipeline)));
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
