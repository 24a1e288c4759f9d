package io.tokenpulse.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./tokenpulse platform}, then {@code aggregate} and {@code bench} as separate processes with
 * exactly the flags {@code platform} printed; then the platform restarted on the same data
 * directory (its schema registration must be idempotent), and {@code replay} and {@code chart} of
 * the stored run through the flags it prints this time. The bad inputs that need a running cluster
 * are checked against it on the way.
 */
class PlatformFlagsIT {
    static final Pattern USE_THEM = Pattern.compile(
            "^Use them with: (--bootstrap-servers \\S+ --schema-registry-url \\S+)   \\(Ctrl-C stops both\\)$");
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

    private static List<String> printedFlags(Tokenpulse.Background platform) throws InterruptedException {
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
    void aggregateAndBenchWithThePrintedFlagsThenReplayAndChartAfterARestart() throws Exception {
        Tokenpulse tokenpulse = new Tokenpulse(home, logs);
        Path dataDir = work.resolve("platform");
        Path results = work.resolve("results");
        Tokenpulse.Result bench;
        int kafkaPort = FreePorts.one();
        int registryPort = FreePorts.one();
        try (Tokenpulse.Background platform = tokenpulse.start(
                "platform",
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

            // bad input that needs the cluster: a Kafka port nothing listens on, beside the real registry.
            // Started now, so that its bounded wait overlaps the aggregator's start and the run.
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
                            "--metrics-port",
                            "0"));

            try (Tokenpulse.Background aggregate = tokenpulse.start(
                    args("aggregate", connection, "--metrics-port", "0").toArray(String[]::new))) {
                aggregate.awaitLine(Pattern.compile("^Aggregator running: application id "), Duration.ofSeconds(120));

                // zstd: Kafka loads zstd-jni (and its native library) only for this codec
                bench = tokenpulse.run(
                        Tokenpulse.ROOT,
                        Duration.ofMinutes(3),
                        args(
                                "bench",
                                connection,
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
                                "--disable-tqdm",
                                "--save-result",
                                "--result-dir",
                                results.toString(),
                                "--result-filename",
                                "bench.json"));
                BenchAgainstSimulatorIT.assertCompleted(bench, 15);

                BadInputIT.assertOneLineError(noKafka.finish(Duration.ofMinutes(2)), 1, closedKafka);
                // a server that never answers: after the ready-check wait, which the line names
                String closedServer = "http://127.0.0.1:" + FreePorts.one();
                Tokenpulse.Result noServer = tokenpulse.run(
                        Tokenpulse.ROOT,
                        Duration.ofMinutes(2),
                        args(
                                "bench",
                                connection,
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
            }
            assertThat(platform.stop()).isIn(0, 143);
        }

        try (Tokenpulse.Background again = tokenpulse.start("platform", "--data-dir", dataDir.toString())) {
            List<String> connection = printedFlags(again);

            Tokenpulse.Result replay = tokenpulse.run(
                    Tokenpulse.ROOT,
                    Duration.ofMinutes(2),
                    args(
                            "replay",
                            connection,
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
                    args("chart", connection, "--run-id", RUN_ID, "--output", png.toString()));
            assertThat(chart.exitCode()).as(chart.toString()).isZero();
            chart.assertQuietStderr();
            assertThat(Files.readAllBytes(png)).startsWith(0x89, 'P', 'N', 'G');

            Tokenpulse.Result unknown = tokenpulse.run(
                    Tokenpulse.ROOT,
                    Duration.ofMinutes(2),
                    args("replay", connection, "--run-id", "no-such-run", "--wait-s", "1"));
            BadInputIT.assertOneLineError(
                    unknown, 1, "no run no-such-run in topic tokenpulse.runs; runs seen: " + RUN_ID);

            assertThat(again.stop()).isIn(0, 143);
        }
    }
}
