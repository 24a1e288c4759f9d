package io.tokenpulse.bench.loadgen;

import io.tokenpulse.aggregator.results.RunResults;
import io.tokenpulse.aggregator.topology.Aggregator;
import io.tokenpulse.aggregator.topology.StreamsSettings;
import io.tokenpulse.producer.LoadGenerator;
import io.tokenpulse.producer.LoadResult;
import io.tokenpulse.producer.publish.EventPublisher;
import io.tokenpulse.schemas.avro.RunSummary;
import io.tokenpulse.tokenizers.Tokenizer;
import io.tokenpulse.tokenizers.TokenizerLoader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.StreamsConfig;

/**
 * How long after a run's last response its final block can be printed, wired as {@code tokenpulse
 * bench} wires a run on the embedded platform: aggregator started in-process just before the load
 * (fresh Kafka Streams client, state kept in the data directory), run-summary topic read with
 * {@link RunResults#awaitSummary}, the deterministic simulator as target. One line per run:
 *
 * <ul>
 *   <li>{@code flush}: last response → {@link LoadGenerator#run} returned (publisher flushed, then
 *       RunFinished published and flushed);</li>
 *   <li>{@code summary}: that return → the run-summary record consumed;</li>
 *   <li>{@code total}: last response → summary consumed, the figure with the 3 s target;</li>
 *   <li>{@code backlog}: input records the aggregator had not committed when the run returned.</li>
 * </ul>
 *
 * <p>The first run of the process pays for class loading and JIT, as a fresh {@code tokenpulse
 * bench} does. Usage: {@code ReportLatencyBench [runs=100,1000,10000] [rate=200] [events=50]
 * [leaveGroup=true]} (rate in requests/s; at 200 req/s about 200 streams are in flight;
 * {@code leaveGroup=false} restores Kafka Streams' stay-in-group-on-close to show what it cost).
 */
public final class ReportLatencyBench {

    private static final String MODEL = "facebook/opt-125m";

    private ReportLatencyBench() {}

    /**
     * The client properties, plus, with {@code leaveGroup=false}, Kafka Streams' own default of
     * staying in the group on close (what StreamsSettings did before), to show its cost.
     */
    private static Properties aggregatorOverrides(BenchPipeline pipeline, boolean leaveGroup) {
        Properties props = pipeline.clientProperties();
        if (!leaveGroup) {
            props.put(StreamsConfig.consumerPrefix("internal.leave.group.on.close"), "false");
        }
        return props;
    }

    /**
     * Input records (chunks, chunk batches, requests, runs) the aggregator had not committed yet: end offsets
     * minus its group's committed offsets. Commits come every 100 ms, so a few hundred records
     * of backlog are normal; more means the aggregator is behind the load.
     */
    private static long backlog(Admin admin, BenchPipeline pipeline) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(
                        StreamsSettings.DEFAULT_APPLICATION_ID)
                .partitionsToOffsetAndMetadata()
                .get();
        List<String> inputs = List.of(
                pipeline.topics().chunks().name(),
                pipeline.topics().chunkBatches().name(),
                pipeline.topics().requests().name(),
                pipeline.topics().runs().name());
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        for (var description :
                admin.describeTopics(inputs).allTopicNames().get().values()) {
            description
                    .partitions()
                    .forEach(p ->
                            latest.put(new TopicPartition(description.name(), p.partition()), OffsetSpec.latest()));
        }
        long backlog = 0;
        for (var end : admin.listOffsets(latest).all().get().entrySet()) {
            OffsetAndMetadata done = committed.get(end.getKey());
            backlog += end.getValue().offset() - (done == null ? 0 : done.offset());
        }
        return backlog;
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts =
                Args.parse(args, Map.of("runs", "100,1000,10000", "rate", "200", "events", "50", "leaveGroup", "true"));
        boolean leaveGroup = Boolean.parseBoolean(opts.get("leaveGroup"));
        int events = Integer.parseInt(opts.get("events"));
        double rate = Double.parseDouble(opts.get("rate"));
        Tokenizer tokenizer = TokenizerLoader.fromEnvironment().load(MODEL);
        Duration ttft = Duration.ofMillis(50);
        Duration gap = Duration.ofMillis(20);
        System.out.printf(
                "# %s %s, %d cores; embedded broker, in-process aggregator (exactly_once_v2), deterministic"
                        + " simulator, all in this JVM; %d events/request at %.0f requests/s%n",
                System.getProperty("java.vm.name"),
                System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(),
                events,
                rate);
        System.out.printf(
                "%4s %8s %8s %10s | %9s %10s %9s | %8s%n",
                "run", "requests", "events", "duration", "flush", "summary", "total", "backlog");
        System.out.printf("%4s %8s %8s %10s | %9s %10s %9s | %8s%n", "", "", "", "s", "ms", "ms", "ms", "records");
        try (BenchPipeline pipeline = BenchPipeline.start();
                SimulatorTarget server = SimulatorTarget.inProcess(events, ttft, gap);
                EventPublisher publisher = pipeline.openPublisher();
                Admin admin = Admin.create(pipeline.clientProperties())) {
            int run = 0;
            for (String size : opts.get("runs").split(",")) {
                int requests = Integer.parseInt(size.strip());
                run++;
                String runId = "bench-report-" + run + "-" + requests + "-" + System.currentTimeMillis();
                var settings =
                        LoadGeneratorBench.settings(runId, "r" + run + "-", events, server.baseUri(), rate, requests);
                try (Aggregator aggregator = Aggregator.start(
                                pipeline.topics(),
                                StreamsSettings.defaults(pipeline.bootstrapServers())
                                        .withStateDir(pipeline.dataDir().resolve("streams")),
                                aggregatorOverrides(pipeline, leaveGroup));
                        RunResults results = RunResults.open(
                                pipeline.topics(),
                                pipeline.clientProperties(),
                                runId,
                                Instant.now().minusSeconds(60),
                                false)) {
                    LoadResult load = new LoadGenerator(
                                    publisher, tokenizer, new PrintStream(OutputStream.nullOutputStream()))
                            .run(settings);
                    long returnedNs = System.nanoTime();
                    long backlog = backlog(admin, pipeline);
                    Optional<RunSummary> summary = results.awaitSummary(Duration.ofSeconds(120));
                    long summaryNs = System.nanoTime();
                    long lastResponseNs = load.scheduleStartEpochNs() + load.durationNs() - WallToMonotonic.offsetNs();
                    if (summary.isEmpty()) {
                        System.out.printf("%4d %8d: no summary within 120 s%n", run, requests);
                        continue;
                    }
                    System.out.printf(
                            "%4d %8d %8d %10.1f | %9.0f %10.0f %9.0f | %8d%n",
                            run,
                            requests,
                            load.chunkEvents(),
                            load.durationNs() / 1e9,
                            (returnedNs - lastResponseNs) / 1e6,
                            (summaryNs - returnedNs) / 1e6,
                            (summaryNs - lastResponseNs) / 1e6,
                            backlog);
                    if (summary.get().getCompleted() != load.succeeded()) {
                        System.out.printf(
                                "     summary counts %d completed, the load generator %d%n",
                                summary.get().getCompleted(), load.succeeded());
                    }
                }
            }
        }
    }
}
