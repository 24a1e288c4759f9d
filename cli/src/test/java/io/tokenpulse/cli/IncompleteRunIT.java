package io.tokenpulse.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tokenpulse.aggregator.exposition.AggregatorMeters;
import io.tokenpulse.aggregator.topology.Aggregator;
import io.tokenpulse.aggregator.topology.StreamsSettings;
import io.tokenpulse.platform.Platform;
import io.tokenpulse.runner.Pipeline;
import io.tokenpulse.schemas.TopicAdmin;
import io.tokenpulse.schemas.Topics;
import io.tokenpulse.schemas.registry.SchemaRegistryClient;
import io.tokenpulse.schemas.registry.SchemaRegistrySettings;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run whose aggregator goes away mid-run still gets a result: {@code bench} (with
 * {@code --bootstrap-servers}, the aggregator a separate one here) waits out its summary timeout, then
 * scores the request metrics the aggregator stored, prints the block and writes the result file marked
 * {@code incomplete} with what is missing, and exits 1; {@code replay} refuses the run, and
 * {@code replay --allow-incomplete} scores it to the same file.
 */
class IncompleteRunIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String RUN = "aggregator-gone";
    private static final int PROMPTS = 60;

    @TempDir
    static Path dir;

    private static Platform platform;
    private static Topics topics;

    @BeforeAll
    static void startPlatform() throws Exception {
        platform = Platform.start(new Platform.Settings(dir.resolve("kafka"), 0, 0));
        topics = Topics.create(
                Topics.DEFAULT_PREFIX,
                new SchemaRegistryClient(
                        SchemaRegistrySettings.of(platform.registryUrl().toString())),
                true);
        topics.resolveSchemaIds();
        TopicAdmin.ensureExist(topics, client(), Pipeline.DEFAULT_PARTITIONS, (short) 1, Duration.ofSeconds(30));
    }

    @AfterAll
    static void stopPlatform() {
        if (platform != null) {
            platform.close();
        }
    }

    @Test
    void aRunWhoseAggregatorWentAwayIsScoredFromWhatItStoredAndMarkedIncomplete() throws Exception {
        Aggregator aggregator = Aggregator.start(
                topics,
                StreamsSettings.defaults(platform.bootstrapServers()).withStateDir(dir.resolve("streams")),
                client(),
                AggregatorMeters.register(new SimpleMeterRegistry(), AggregatorMeters.DEFAULT_FINISHED_RUN_RETENTION));
        assertThat(aggregator.awaitRunning(Duration.ofSeconds(60))).isTrue();
        // 60 requests over about 6 s; the aggregator stops once it has stored 5 of them.
        CompletableFuture<Command> bench = CompletableFuture.supplyAsync(() -> run(
                "bench",
                "--simulate",
                "--simulate-profile",
                "deterministic",
                "--dataset-name",
                "random",
                "--num-prompts",
                Integer.toString(PROMPTS),
                "--random-input-len",
                "16",
                "--random-output-len",
                "8",
                "--request-rate",
                "10",
                "--disable-tqdm",
                "--save-result",
                "--result-dir",
                dir.toString(),
                "--result-filename",
                "bench.json",
                "--run-id",
                RUN,
                "--bootstrap-servers",
                platform.bootstrapServers(),
                "--schema-registry-url",
                platform.registryUrl().toString(),
                "--metrics-port",
                "0",
                "--summary-timeout-s",
                "3"));
        awaitStoredRequests(5, Duration.ofSeconds(120));
        aggregator.close();
        Command result = bench.get();

        assertThat(result.code).as(result.out + result.err).isEqualTo(1);
        assertThat(result.err)
                .contains("bench: no run summary for run " + RUN + " within 3 s")
                .contains("; the result above was scored from what the aggregator stored");
        JsonNode json = JSON.readTree(Files.readString(dir.resolve("bench.json")));
        int stored = json.get("completed").asInt();
        assertThat(stored).isBetween(5, PROMPTS - 1);
        assertThat(json.get("num_prompts").asInt()).isEqualTo(PROMPTS);
        assertThat(json.get("incomplete").asText())
                .isEqualTo((PROMPTS - stored) + " of " + PROMPTS + " request metrics");
        assertThat(result.out)
                .contains("============ Serving Benchmark Result ============")
                .containsPattern("Successful requests: +" + stored + " ")
                .contains("Warning: incomplete result, missing " + (PROMPTS - stored) + " of " + PROMPTS
                        + " request metrics; the figures above cover what the aggregator stored.");

        Command refused = run(replay().toArray(String[]::new));
        assertThat(refused.code).isEqualTo(1);
        assertThat(refused.err)
                .contains("run " + RUN + " is not complete")
                .contains("did the run and its aggregator finish?");

        List<String> allowed = new ArrayList<>(replay());
        allowed.addAll(List.of(
                "--allow-incomplete",
                "--save-result",
                "--result-dir",
                dir.toString(),
                "--result-filename",
                "replay.json"));
        Command replayed = run(allowed.toArray(String[]::new));
        assertThat(replayed.code).as(replayed.out + replayed.err).isZero();
        assertThat(Files.readString(dir.resolve("replay.json")))
                .isEqualTo(ReplayCommandIT.withoutClientCpu(Files.readString(dir.resolve("bench.json"))));
    }

    private static List<String> replay() {
        return List.of(
                "replay",
                "--run-id",
                RUN,
                "--wait-s",
                "1",
                "--bootstrap-servers",
                platform.bootstrapServers(),
                "--schema-registry-url",
                platform.registryUrl().toString());
    }

    /** Polls the request-metrics topic until {@code count} of the run's records are committed there. */
    private static void awaitStoredRequests(int count, Duration timeout) {
        Properties props = client();
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (KafkaConsumer<String, byte[]> consumer =
                new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer
                    .partitionsFor(topics.requestMetrics().name())
                    .stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            int seen = 0;
            long deadline = System.nanoTime() + timeout.toNanos();
            while (seen < count) {
                assertThat(System.nanoTime())
                        .as("request metrics stored in time")
                        .isLessThan(deadline);
                for (var record : consumer.poll(Duration.ofMillis(100))) {
                    if (record.key().startsWith(Topics.requestKeyPrefix(RUN))) {
                        seen++;
                    }
                }
            }
        }
    }

    private record Command(int code, String out, String err) {}

    /** Runs a tokenpulse command in this JVM, capturing what it prints (System.out, System.err, picocli's err). */
    private static synchronized Command run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        StringWriter picocliErr = new StringWriter();
        PrintStream originalOut = System.out;
        PrintStream originalErr = System.err;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        int code;
        try {
            code = TokenPulse.newCommandLine()
                    .setErr(new PrintWriter(picocliErr, true))
                    .execute(args);
        } finally {
            System.setOut(originalOut);
            System.setErr(originalErr);
        }
        return new Command(
                code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8) + picocliErr);
    }

    private static Properties client() {
        Properties props = new Properties();
        props.put("bootstrap.servers", platform.bootstrapServers());
        return props;
    }
}
