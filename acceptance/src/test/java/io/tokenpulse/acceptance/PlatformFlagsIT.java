package io.tokenpulse.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./tokenpulse platform --secure}, then {@code aggregate} and {@code bench} as separate
 * processes with exactly the flags {@code platform} printed (each with its own credential file);
 * then the platform restarted on the same data directory (its schema registration and ACLs must be
 * idempotent), and {@code replay}, {@code chart} and {@code export} of the stored run through the flags it prints
 * this time. The bad inputs that need a running cluster are checked against it on the way, and at the
 * end no password is in any output, log, result file, /metrics page or record of the runs topic.
 */
class PlatformFlagsIT {
    static final Pattern USE_THEM = Pattern.compile(
            "^Use them with: (--bootstrap-servers \\S+ --schema-registry-url \\S+)   \\(Ctrl-C stops both\\)$");
    static final Pattern BENCH_FILE = Pattern.compile("^  bench, replay, chart: --kafka-property-file (\\S+)$");
    static final Pattern AGGREGATE_FILE = Pattern.compile("^  aggregate: +--kafka-property-file (\\S+)$");
    static final String RUN_ID = "acceptance-platform-run";

    @TempDir
    Path home;

    @TempDir
    Path logs;

    @TempDir
    Path work;

    static List<String> args(String command, List<String> connection, String... more) {
        List<String> args = new ArrayList<>();
        args.add(command);
        args.addAll(connection);
        args.addAll(List.of(more));
        return args;
    }

    /** The {@code --bootstrap-servers ... --schema-registry-url ...} a starting platform prints, once it does. */
    static List<String> printedFlags(Tokenpulse.Background platform) throws InterruptedException {
        Matcher use = platform.awaitLine(USE_THEM, Duration.ofSeconds(120));
        return List.of(use.group(1).split(" "));
    }

    /** The block from its title to its closing rule. */
    private static List<String> block(Tokenpulse.Result run) {
        List<String> lines = run.stdoutLines();
        int from = lines.indexOf("============ Serving Benchmark Result ============");
        assertThat(from).as(run.toString()).isNotNegative();
        int to = lines.subList(from, lines.size()).indexOf("==================================================");
        return lines.subList(from, from + to + 1);
    }

    @Test
    void securedAggregateAndBenchWithThePrintedFlagsThenReplayAndChartAfterARestartLeakNoPassword() throws Exception {
        Tokenpulse tokenpulse = new Tokenpulse(home, logs);
        Path dataDir = work.resolve("platform");
        Path results = work.resolve("results");
        Tokenpulse.Result bench;
        int kafkaPort = FreePorts.one();
        int registryPort = FreePorts.one();
        int metricsPort = FreePorts.one();
        String metrics;
        try (Tokenpulse.Background platform = tokenpulse.start(
                "platform",
                "--secure",
                "--data-dir",
                dataDir.toString(),
                "--kafka-port",
                Integer.toString(kafkaPort),
                "--registry-port",
                Integer.toString(registryPort))) {
            List<String> connection = printedFlags(platform);
            assertThat(connection)
                    .containsExactly(
                            "--bootstrap-servers",
                            "127.0.0.1:" + kafkaPort,
                            "--schema-registry-url",
                            "http://127.0.0.1:" + registryPort);
            String benchFile =
                    platform.awaitLine(BENCH_FILE, Duration.ofSeconds(10)).group(1);
            String aggregateFile =
                    platform.awaitLine(AGGREGATE_FILE, Duration.ofSeconds(10)).group(1);
            List<String> benchConnection = withFile(connection, benchFile);

            // bad input that needs the cluster: a Kafka port nothing listens on, beside the real registry.
            // Started now, so that its bounded wait (Kafka's default.api.timeout.ms, 30 s unless given)
            // overlaps the aggregator's start and the run.
            String closedKafka = "127.0.0.1:" + FreePorts.one();
            Tokenpulse.Background noKafka = tokenpulse.start(
                    Tokenpulse.ROOT,
                    List.of(
                            "bench",
                            "--bootstrap-servers",
                            closedKafka,
                            connection.get(2),
                            connection.get(3),
                            "--simulate",
                            "--dataset-name",
                            "random",
                            "--num-prompts",
                            "5",
                            "--kafka-property",
                            "default.api.timeout.ms=4000",
                            "--metrics-port",
                            "0"));
            // the aggregator's credentials may not publish a run
            Tokenpulse.Background wrongUser = tokenpulse.start(
                    Tokenpulse.ROOT,
                    args(
                            "bench",
                            withFile(connection, aggregateFile),
                            "--simulate",
                            "--dataset-name",
                            "random",
                            "--num-prompts",
                            "5",
                            "--metrics-port",
                            "0"));

            try (Tokenpulse.Background aggregate = tokenpulse.start(args(
                            "aggregate",
                            withFile(connection, aggregateFile),
                            "--metrics-port",
                            Integer.toString(metricsPort))
                    .toArray(String[]::new))) {
                aggregate.awaitLine(Pattern.compile("^Aggregator running: application id "), Duration.ofSeconds(120));

                // zstd: Kafka loads zstd-jni (and its native library) only for this codec. The password also
                // comes as a --kafka-property, which wins over the file's and must be redacted everywhere.
                bench = tokenpulse.run(
                        Tokenpulse.ROOT,
                        Duration.ofMinutes(3),
                        args(
                                "bench",
                                benchConnection,
                                "--simulate",
                                "--simulate-profile",
                                "deterministic",
                                "--dataset-name",
                                "random",
                                "--num-prompts",
                                "15",
                                "--random-input-len",
                                "32",
                                "--random-output-len",
                                "6",
                                "--request-rate",
                                "50",
                                "--run-id",
                                RUN_ID,
                                "--metrics-port",
                                "0",
                                "--kafka-property",
                                "compression.type=zstd",
                                "--kafka-property",
                                "sasl.jaas.config=" + credentials(benchFile).getProperty("sasl.jaas.config"),
                                "--disable-tqdm",
                                "--save-result",
                                "--result-dir",
                                results.toString(),
                                "--result-filename",
                                "bench.json"));
                BenchAgainstSimulatorIT.assertCompleted(bench, 15);
                assertThat(bench.stdout()).contains("kafka_property_file='" + benchFile + "'");
                metrics = HttpClient.newHttpClient()
                        .send(
                                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + "/metrics"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString())
                        .body();
                assertThat(metrics).contains("tokenpulse_");

                BadInputIT.assertOneLineError(noKafka.finish(Duration.ofMinutes(2)), 1, closedKafka);
                BadInputIT.assertOneLineError(
                        wrongUser.finish(Duration.ofMinutes(2)),
                        1,
                        "does not let these credentials WRITE topic tokenpulse.runs, which bench needs: use the"
                                + " credentials meant for bench");
                // a server that never answers: after the ready-check wait, which the line names
                String closedServer = "http://127.0.0.1:" + FreePorts.one();
                Tokenpulse.Result noServer = tokenpulse.run(
                        Tokenpulse.ROOT,
                        Duration.ofMinutes(2),
                        args(
                                "bench",
                                benchConnection,
                                "--base-url",
                                closedServer,
                                "--model",
                                "gpt2",
                                "--dataset-name",
                                "random",
                                "--num-prompts",
                                "5",
                                "--ready-check-timeout-sec",
                                "2",
                                "--metrics-port",
                                "0"));
                BadInputIT.assertOneLineError(
                        noServer, 1, "the server at " + closedServer + "/health was not ready within 2 s");

                assertThat(aggregate.stop()).isIn(0, 143);
                // Ctrl-C says what the aggregate waits for, and when it is done
                assertThat(aggregate.stdout())
                        .contains("Stopping the aggregator: its last commit and leaving its group (up to 30 s")
                        .contains("Aggregator stopped.");
            }
            assertThat(platform.stop()).isIn(0, 143);
        }

        Tokenpulse.Result unsecured =
                tokenpulse.run(Duration.ofMinutes(2), "platform", "--data-dir", dataDir.toString());
        BadInputIT.assertOneLineError(
                unsecured, 2, "holds a secured broker: start it with tokenpulse platform --secure");

        try (Tokenpulse.Background again = tokenpulse.start("platform", "--secure", "--data-dir", dataDir.toString())) {
            List<String> connection = printedFlags(again);
            String benchFile =
                    again.awaitLine(BENCH_FILE, Duration.ofSeconds(10)).group(1);
            Properties credentials = credentials(benchFile);

            // replay takes the credentials as --kafka-property only, chart from the file
            List<String> replayArgs = new ArrayList<>(connection);
            for (String key : credentials.stringPropertyNames()) {
                replayArgs.addAll(List.of("--kafka-property", key + "=" + credentials.getProperty(key)));
            }
            Tokenpulse.Result replay = tokenpulse.run(
                    Tokenpulse.ROOT,
                    Duration.ofMinutes(2),
                    args(
                            "replay",
                            replayArgs,
                            "--run-id",
                            RUN_ID,
                            "--save-result",
                            "--result-dir",
                            results.toString(),
                            "--result-filename",
                            "replay.json"));
            assertThat(replay.exitCode()).as(replay.toString()).isZero();
            replay.assertQuietStderr();
            assertThat(block(replay)).isEqualTo(block(bench));
            ObjectMapper json = new ObjectMapper();
            JsonNode replayed = json.readTree(results.resolve("replay.json").toFile());
            assertThat(replayed)
                    .isEqualTo(json.readTree(
                            Tokenpulse.withoutClientCpu(Files.readString(results.resolve("bench.json")))));

            Path png = work.resolve("run.png");
            Tokenpulse.Result chart = tokenpulse.run(
                    Tokenpulse.ROOT,
                    Duration.ofMinutes(2),
                    args("chart", withFile(connection, benchFile), "--run-id", RUN_ID, "--output", png.toString()));
            assertThat(chart.exitCode()).as(chart.toString()).isZero();
            chart.assertQuietStderr();
            assertThat(Files.readAllBytes(png)).startsWith(0x89, 'P', 'N', 'G');

            // export reads the chunk events too, with the same credentials
            Path exported = work.resolve("export");
            Tokenpulse.Result export = tokenpulse.run(
                    Tokenpulse.ROOT,
                    Duration.ofMinutes(2),
                    args(
                            "export",
                            withFile(connection, benchFile),
                            "--run-id",
                            RUN_ID,
                            "--format",
                            "csv",
                            "--output",
                            exported.toString()));
            assertThat(export.exitCode()).as(export.toString()).isZero();
            export.assertQuietStderr();
            assertThat(Files.readAllLines(exported.resolve("chunks.csv"))).hasSize(15 * 6 + 1);

            Tokenpulse.Result unknown = tokenpulse.run(
                    Tokenpulse.ROOT,
                    Duration.ofMinutes(2),
                    args("replay", withFile(connection, benchFile), "--run-id", "no-such-run", "--wait-s", "1"));
            BadInputIT.assertOneLineError(
                    unknown, 1, "no run no-such-run in topic tokenpulse.runs; runs seen: " + RUN_ID);

            List<String> runRecords = runsTopic(connection.get(1), credentials);
            assertThat(runRecords).anySatisfy(record -> assertThat(record).contains(RUN_ID, "<redacted>"));
            assertNoPassword(dataDir, List.of(String.join("\n", runRecords), metrics));
            assertThat(again.stop()).isIn(0, 143);
        }
        assertNoPassword(dataDir, List.of());
    }

    private static List<String> withFile(List<String> connection, String propertyFile) {
        List<String> with = new ArrayList<>(connection);
        with.addAll(List.of("--kafka-property-file", propertyFile));
        return with;
    }

    private static Properties credentials(String file) throws IOException {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(Path.of(file))) {
            properties.load(reader);
        }
        return properties;
    }

    /** Every record value of the runs topic, bytes as Latin-1 text: RunStarted carries the whole configuration. */
    private static List<String> runsTopic(String bootstrapServers, Properties credentials) {
        Properties config = new Properties();
        config.putAll(credentials);
        config.put("bootstrap.servers", bootstrapServers);
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor("tokenpulse.runs", Duration.ofSeconds(30)).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(30));
            List<String> values = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                assertThat(System.nanoTime())
                        .as("read the runs topic within 30 s")
                        .isLessThan(deadline);
                consumer.poll(Duration.ofMillis(500))
                        .forEach(r -> values.add(new String(r.value(), StandardCharsets.ISO_8859_1)));
            }
            return values;
        }
    }

    /**
     * No password of the platform's users in {@code texts}, in any file the commands wrote (outputs,
     * logs, result files, the home and work folders, the broker's data) but the credential files.
     */
    private void assertNoPassword(Path dataDir, List<String> texts) throws IOException {
        Path security = dataDir.resolve("security");
        List<String> passwords = new ArrayList<>();
        try (var files = Files.list(security)) {
            for (Path file : files.toList()) {
                Matcher password = Pattern.compile("password=\"([^\"]+)\"")
                        .matcher(credentials(file.toString()).getProperty("sasl.jaas.config"));
                assertThat(password.find()).as(file.toString()).isTrue();
                passwords.add(password.group(1));
            }
        }
        assertThat(passwords).hasSize(3);
        for (String text : texts) {
            assertThat(passwords).noneSatisfy(p -> assertThat(text).contains(p));
        }
        for (Path root : List.of(logs, home, work)) {
            try (var files = Files.walk(root)) {
                for (Path file : files.filter(Files::isRegularFile)
                        .filter(f -> !f.startsWith(security))
                        .toList()) {
                    String content = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
                    assertThat(passwords)
                            .as(file.toString())
                            .noneSatisfy(p -> assertThat(content).contains(p));
                }
            }
        }
    }
}
