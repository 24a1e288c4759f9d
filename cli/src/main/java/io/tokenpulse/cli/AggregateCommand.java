package io.tokenpulse.cli;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tokenpulse.aggregator.exposition.AggregatorMeters;
import io.tokenpulse.aggregator.exposition.MetricsEndpoint;
import io.tokenpulse.aggregator.exposition.OtlpExport;
import io.tokenpulse.aggregator.topology.Aggregator;
import io.tokenpulse.aggregator.topology.StreamsSettings;
import io.tokenpulse.aggregator.topology.TopologyListener;
import io.tokenpulse.cli.options.KafkaOptions;
import io.tokenpulse.cli.options.MetricsOptions;
import io.tokenpulse.cli.options.WindowOptions;
import io.tokenpulse.runner.Pipeline;
import io.tokenpulse.runner.UserError;
import io.tokenpulse.schemas.PipelineRole;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tokenpulse aggregate}: the Kafka Streams aggregator as a long-running service. Several
 * instances with the same application id share the work through Kafka Streams' partitions.
 */
@Command(
        name = "aggregate",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Run the aggregator (Kafka Streams, exactly once) until Ctrl-C.")
final class AggregateCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    KafkaOptions kafka;

    @Option(
            names = "--application-id",
            defaultValue = StreamsSettings.DEFAULT_APPLICATION_ID,
            description =
                    "Kafka Streams application id; instances with the same id share the work (default: ${DEFAULT-VALUE}).")
    String applicationId;

    @Option(
            names = "--state-dir",
            paramLabel = "DIR",
            description =
                    "Where this instance keeps its local state stores (default: ~/.tokenpulse/streams, or the embedded platform's data dir); give each instance on one host its own.")
    java.nio.file.Path stateDir;

    @Option(
            names = "--stream-threads",
            paramLabel = "N",
            defaultValue = "1",
            description =
                    "Kafka Streams threads of this instance (default: ${DEFAULT-VALUE}, which leaves a host shared with a load generator its cores); a topic partition is one thread's work, so threads beyond the topics' partitions across all instances stay idle (docs/cluster.md).")
    int streamThreads;

    @Mixin
    WindowOptions windows;

    @Mixin
    MetricsOptions metrics;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        metrics.validate();
        windows.validate();
        if (streamThreads < 1) {
            throw UserError.usage("--stream-threads must be >= 1, got " + streamThreads);
        }
        Pipeline pipeline = Pipeline.connect(kafka.settings(), PipelineRole.AGGREGATE);
        StreamsSettings settings = windows.applyTo(StreamsSettings.defaults(pipeline.bootstrapServers())
                .withApplicationId(applicationId)
                .withReplicationFactor(pipeline.replicationFactor())
                .withStreamThreads(streamThreads));
        if (stateDir != null) {
            settings = settings.withStateDir(stateDir.toAbsolutePath());
        }
        Properties overrides = pipeline.clientProperties();
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        AggregatorMeters meters = AggregatorMeters.register(registry, AggregatorMeters.DEFAULT_FINISHED_RUN_RETENTION);
        OtlpExport otlp = metrics.otlpEndpoint()
                .map(url -> OtlpExport.start(url, AggregatorMeters.DEFAULT_FINISHED_RUN_RETENTION))
                .orElse(null);
        Aggregator aggregator;
        try {
            aggregator = Aggregator.start(
                    pipeline.topics(),
                    settings,
                    overrides,
                    otlp == null ? meters : TopologyListener.all(List.of(meters, otlp)));
        } catch (org.apache.kafka.streams.errors.StreamsException e) {
            if (otlp != null) {
                otlp.close();
            }
            pipeline.close();
            // two instances on one host: Kafka Streams locks its state dir
            throw UserError.failure("the aggregator could not start (" + e.getMessage() + "); another instance may use"
                    + " the state dir " + settings.stateDir() + ": give each instance its own --state-dir");
        }
        meters.bindStreams(aggregator.kafkaStreams(), pipeline.topics());
        MetricsEndpoint endpoint = metrics.startOrNull(registry);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            // a broker that is already gone makes the close wait its whole timeout: say so
                            out.println("Stopping the aggregator: its last commit and leaving its group (up to "
                                    + Aggregator.CLOSE_TIMEOUT.toSeconds() + " s while Kafka answers)...");
                            out.flush();
                            if (endpoint != null) {
                                endpoint.close();
                            }
                            aggregator.close();
                            meters.close();
                            if (otlp != null) {
                                otlp.close(); // after the aggregator: the last push has every request
                            }
                            pipeline.close();
                            out.println("Aggregator stopped.");
                            out.flush();
                            stopped.countDown();
                        },
                        "aggregate-shutdown"));
        if (!aggregator.awaitRunning(Duration.ofSeconds(60))) {
            throw UserError.failure("the aggregator did not reach RUNNING within 60 s (state " + aggregator.state()
                    + "); check that Kafka at " + pipeline.bootstrapServers() + " is healthy");
        }
        int threads = aggregator.streamThreads();
        out.println("Aggregator running: application id " + applicationId + ", Kafka " + pipeline.bootstrapServers()
                + (pipeline.embedded() ? " (embedded)" : "")
                + ", " + threads + (threads == 1 ? " stream thread" : " stream threads")
                + (endpoint != null ? ", metrics at " + endpoint.uri() : "")
                + (otlp != null ? ", OTLP to " + metrics.otlpEndpoint().orElseThrow() : "") + ". Ctrl-C stops it.");
        out.flush();
        stopped.await();
        return 0;
    }
}
