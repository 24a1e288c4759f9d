package io.tokenpulse.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 31, item 2 (first fault): {@code ./tokenpulse platform --brokers 3} (three KRaft brokers, each
 * its own process), a seeded bench against a separate {@code simulate} and {@code aggregate}, and the
 * broker leading partition 0 of {@code chunks} killed with SIGKILL mid-run and never brought back. The
 * run ends with every request and token, its result equals {@code replay} of its stored records, and
 * every chunk event is in Kafka exactly once (read with {@code read_committed}). The killed broker,
 * started again by hand from its node's {@code node.command}, rejoins until every partition is in sync.
 * Then the platform itself is killed, and its remaining brokers end with it.
 */
// 90 s of the suite's 20 minutes: run on demand (-Dtokenpulse.faults=true), as bench/cluster-faults/run is
@EnabledIfSystemProperty(named = "tokenpulse.faults", matches = "true")
class ClusterBrokerLossIT {

    private static final int REQUESTS = 120;
    private static final int OUTPUT_LEN = 40;
    private static final String RUN_ID = "cluster-broker-loss";
    private static final Pattern BROKER = Pattern.compile("^Broker (\\d+): (\\S+) \\(pid (\\d+), log .*\\)$");

    @TempDir
    Path home;

    @TempDir
    Path logs;

    @TempDir
    Path work;

    @Test
    void aBrokerLeadingChunksKilledMidRunLosesAndDuplicatesNothing() throws Exception {
        Tokenpulse tokenpulse = new Tokenpulse(home, logs);
        Path results = work.resolve("results");
        try (SeparatePipeline pipeline = SeparatePipeline.start(
                tokenpulse,
                "--brokers",
                "3",
                "--data-dir",
                work.resolve("platform").toString(),
                "--registry-port",
                Integer.toString(FreePorts.one()))) {
            String bootstrap = pipeline.bootstrapServers();
            assertThat(bootstrap.split(",")).hasSize(3);
            Map<Integer, Long> brokerPids = brokerPids(pipeline.platform().stdout());
            assertThat(brokerPids).hasSize(3);
            try (Tokenpulse.Background aggregate = pipeline.aggregate(tokenpulse)) {
                assertThat(aggregate.stderr())
                        .contains("3 partitions, replication factor 3, min.insync.replicas 2 (cluster of 3 brokers)");
                Tokenpulse.Background bench = tokenpulse.start(
                        Tokenpulse.ROOT,
                        pipeline.bench(
                                REQUESTS, OUTPUT_LEN, 8, results, "bench.json", "--seed", "7", "--run-id", RUN_ID));
                bench.awaitLine(SeparatePipeline.MAIN_RUN, Duration.ofSeconds(120));
                Thread.sleep(4_000);
                int leader = leaderOfChunks0(bootstrap);
                kill9(brokerPids.get(leader));

                Tokenpulse.Result run = bench.finish(Duration.ofMinutes(5));

                assertThat(run.exitCode()).as(run.toString()).isZero();
                assertThat(run.stdoutLines())
                        .as(run.toString())
                        .anySatisfy(line -> assertThat(line).matches("Successful requests: +" + REQUESTS + " *"))
                        .noneSatisfy(
                                line -> assertThat(line).startsWith("Warning: ").contains("not delivered"));
                ObjectMapper json = new ObjectMapper();
                JsonNode result = json.readTree(results.resolve("bench.json").toFile());
                assertThat(result.path("completed").asInt()).isEqualTo(REQUESTS);
                assertThat(result.path("total_output_tokens").asInt()).isEqualTo(REQUESTS * OUTPUT_LEN);
                assertThat(result.has("records_not_delivered"))
                        .as(result.toString())
                        .isFalse();

                Tokenpulse.Result replay = tokenpulse.run(
                        Tokenpulse.ROOT,
                        Duration.ofMinutes(2),
                        pipeline.args(
                                "replay",
                                "--run-id",
                                RUN_ID,
                                "--save-result",
                                "--result-dir",
                                results.toString(),
                                "--result-filename",
                                "replay.json"));
                assertThat(replay.exitCode()).as(replay.toString()).isZero();
                assertThat(json.readTree(results.resolve("replay.json").toFile()))
                        .isEqualTo(json.readTree(
                                Tokenpulse.withoutClientCpu(Files.readString(results.resolve("bench.json")))));

                assertThat(committedChunkEvents(tokenpulse, pipeline, work.resolve("export")))
                        .as("chunk events of the run in Kafka, read_committed: each once")
                        .containsExactly(REQUESTS * OUTPUT_LEN, REQUESTS * OUTPUT_LEN);

                startedAgainByHandRejoins(work.resolve("platform"), leader, brokerPids, bootstrap);
            }
            // the parent dies without a word: its brokers must not outlive it
            pipeline.killPlatform();
            for (Map.Entry<Integer, Long> broker : brokerPids.entrySet()) {
                ProcessHandle.of(broker.getValue())
                        .ifPresent(process -> assertThat(process.onExit()
                                        .completeOnTimeout(null, 60, java.util.concurrent.TimeUnit.SECONDS)
                                        .join())
                                .as("broker " + broker.getKey() + " ended with its platform")
                                .isNotNull());
            }
        }
    }

    /**
     * The killed broker started again from the files its node left ({@code node.command}, with a stdin
     * kept open, as docs/cluster.md says): it rejoins, and every partition has all its replicas in sync.
     */
    private static void startedAgainByHandRejoins(Path dataDir, int killed, Map<Integer, Long> pids, String bootstrap)
            throws Exception {
        for (Map.Entry<Integer, Long> broker : pids.entrySet()) {
            assertThat(Files.readString(
                                    dataDir.resolve("node-" + broker.getKey()).resolve("node.pid"))
                            .strip())
                    .isEqualTo(broker.getValue().toString());
        }
        Path node = dataDir.resolve("node-" + killed);
        Process again = new ProcessBuilder(Files.readAllLines(node.resolve("node.command")))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(
                        node.resolve("kafka-child.log").toFile()))
                .start();
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            List<String> lagging = List.of("(not asked yet)");
            long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
            while (!lagging.isEmpty() && System.nanoTime() < deadline && again.isAlive()) {
                Thread.sleep(1_000);
                lagging = admin.describeTopics(admin.listTopics().names().get()).allTopicNames().get().values().stream()
                        .flatMap(t -> t.partitions().stream()
                                .filter(p -> p.isr().size() < p.replicas().size())
                                .map(p -> t.name() + "-" + p.partition()))
                        .toList();
            }
            assertThat(lagging)
                    .as("partitions not in sync after broker " + killed + " started again by hand")
                    .isEmpty();
        } finally {
            again.getOutputStream().close(); // its stdin closes: a clean stop
            if (!again.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
                again.destroyForcibly();
            }
        }
    }

    private static Map<Integer, Long> brokerPids(String platformOut) {
        Map<Integer, Long> pids = new HashMap<>();
        for (String line : platformOut.split("\r?\n")) {
            Matcher m = BROKER.matcher(line);
            if (m.matches()) {
                pids.put(Integer.parseInt(m.group(1)), Long.parseLong(m.group(3)));
            }
        }
        return pids;
    }

    private static int leaderOfChunks0(String bootstrap) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            // the topic that carries the streamed events (bench's default chunk records)
            TopicDescription chunks = admin.describeTopics(List.of("tokenpulse.chunk-batches"))
                    .allTopicNames()
                    .get()
                    .get("tokenpulse.chunk-batches");
            assertThat(chunks.partitions().get(0).replicas()).hasSize(3);
            return chunks.partitions().get(0).leader().id();
        }
    }

    private static void kill9(long pid) throws Exception {
        int code = new ProcessBuilder("kill", "-9", Long.toString(pid))
                .inheritIO()
                .start()
                .waitFor();
        assertThat(code).as("kill -9 " + pid).isZero();
    }

    /**
     * The run's chunk events as {@code export} reads them (read_committed, from both chunk topics, a
     * batch as its events): how many, and how many distinct by shard, request and seq.
     */
    private static List<Integer> committedChunkEvents(Tokenpulse tokenpulse, SeparatePipeline pipeline, Path output)
            throws Exception {
        Tokenpulse.Result export = tokenpulse.run(
                Tokenpulse.ROOT,
                Duration.ofMinutes(2),
                pipeline.args("export", "--run-id", RUN_ID, "--format", "csv", "--output", output.toString()));
        assertThat(export.exitCode()).as(export.toString()).isZero();
        List<String> rows = Files.readAllLines(output.resolve("chunks.csv"));
        assertThat(rows.get(0)).startsWith("run_id,shard_index,request_index,seq,");
        Set<String> distinct = new HashSet<>();
        for (String row : rows.subList(1, rows.size())) {
            String[] cells = row.split(",", 5);
            distinct.add(cells[1] + "/" + cells[2] + "/" + cells[3]);
        }
        return List.of(rows.size() - 1, distinct.size());
    }
}
