package io.tokenpulse.runner;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tokenpulse.aggregator.exposition.AggregatorMeters;
import io.tokenpulse.aggregator.exposition.MetricsEndpoint;
import io.tokenpulse.aggregator.exposition.OtlpExport;
import io.tokenpulse.aggregator.topology.Aggregator;
import io.tokenpulse.aggregator.topology.StreamsSettings;
import io.tokenpulse.aggregator.topology.TopologyListener;
import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What every {@link BenchRun} on one pipeline shares, owned by whoever runs them ({@code bench} one,
 * {@code sweep} many): the /metrics endpoint and its registry, and on the embedded platform the
 * in-process aggregator (and its OTLP export, with {@code --otlp-endpoint}). Starting the aggregator once, not per run, is what keeps a sweep's points
 * cheap: Kafka Streams' start and its first rebalance take seconds.
 */
public final class BenchHost implements AutoCloseable {

    /**
     * What the host serves and runs beside the runs: /metrics and the in-process aggregator's windows.
     *
     * @param metricsHost the address /metrics binds
     * @param metricsPort its port; 0: no endpoint
     * @param otlpEndpoint the OTLP receiver the in-process aggregator's request meters are pushed to, if any
     * @param windowSize the in-process aggregator's live windows
     * @param windowGrace how late a request may arrive and still count in its window
     * @param frugal --frugal: the in-process aggregator starts after the load, not before
     */
    public record Settings(
            String metricsHost,
            int metricsPort,
            Optional<URI> otlpEndpoint,
            Duration windowSize,
            Duration windowGrace,
            boolean frugal) {}

    /** Prometheus' default scrape interval: the longest the host waits for its final scrape. */
    private static final Duration FINAL_SCRAPE_MAX = Duration.ofMinutes(1);

    private final Pipeline pipeline;
    private final Settings settings;
    private final PipelinePriority priority;
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private MetricsEndpoint endpoint;
    private AggregatorMeters meters;
    private OtlpExport otlp;
    private Aggregator aggregator;
    private boolean summarized;

    private BenchHost(Pipeline pipeline, Settings settings, PipelinePriority priority) {
        this.pipeline = pipeline;
        this.settings = settings;
        this.priority = priority;
    }

    /**
     * Serves /metrics (unless its port is 0) and, on the embedded platform, starts the aggregator, or
     * with {@link Settings#frugal} ({@code --frugal}) leaves that to {@link #aggregateAfterLoad}; both at the
     * pipeline's {@code priority}, which the runs on this host start their parts at too.
     */
    public static BenchHost start(Pipeline pipeline, Settings settings, PipelinePriority priority)
            throws InterruptedException {
        BenchHost host = new BenchHost(pipeline, settings, priority);
        try {
            priority.start(() -> {
                // One endpoint serves the aggregator's and the load generators' meters.
                host.endpoint = settings.metricsPort() > 0
                        ? MetricsEndpoint.start(host.registry, settings.metricsHost(), settings.metricsPort())
                        : null;
                if (pipeline.embedded()) {
                    // One command, one process: the aggregator runs beside the load generator.
                    host.meters =
                            AggregatorMeters.register(host.registry, AggregatorMeters.DEFAULT_FINISHED_RUN_RETENTION);
                    host.otlp = settings.otlpEndpoint()
                            .map(url -> OtlpExport.start(url, AggregatorMeters.DEFAULT_FINISHED_RUN_RETENTION))
                            .orElse(null);
                    if (!settings.frugal()) {
                        host.startAggregator();
                    }
                }
                return host;
            });
            return host;
        } catch (RuntimeException | InterruptedException e) {
            host.close();
            throw e;
        }
    }

    private void startAggregator() {
        aggregator = Aggregator.start(
                pipeline.topics(),
                StreamsSettings.defaults(pipeline.bootstrapServers())
                        .withReplicationFactor(pipeline.replicationFactor())
                        .withStateDir(pipeline.dataDir().resolve("streams"))
                        .withWindowSize(settings.windowSize())
                        .withWindowGrace(settings.windowGrace()),
                pipeline.clientProperties(),
                otlp == null ? meters : TopologyListener.all(List.of(meters, otlp)));
        meters.bindStreams(aggregator.kafkaStreams(), pipeline.topics());
    }

    /**
     * After a run's load: starts the in-process aggregator if {@code --frugal} deferred it, so it
     * catches up on the run's {@code events} from the topics (once; later runs of a sweep find it running).
     */
    void aggregateAfterLoad(long events, PrintStream out) throws InterruptedException {
        if (pipeline.embedded() && aggregator == null) {
            out.println("Aggregating the run's " + events + " events now (--frugal)...");
            priority.start(() -> {
                startAggregator();
                return aggregator;
            });
        }
    }

    public Pipeline pipeline() {
        return pipeline;
    }

    /** The priority the pipeline's parts start at: a run's publisher and scrapers too. */
    PipelinePriority priority() {
        return priority;
    }

    PrometheusMeterRegistry registry() {
        return registry;
    }

    /** A run got its summary: its gauges are on /metrics, so a scraper should see them before the end. */
    void summarized() {
        summarized = true;
    }

    /** Lets a scraper see the last summary's gauges, then stops the aggregator and /metrics. */
    @Override
    public void close() {
        try {
            if (summarized && endpoint != null) {
                endpoint.awaitNextScrape(FINAL_SCRAPE_MAX);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            // the aggregator first, so OTLP's last push has every request
            Closing.all(aggregator, meters, otlp, endpoint);
        }
    }
}
