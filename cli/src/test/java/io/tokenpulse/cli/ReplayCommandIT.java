package io.tokenpulse.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tokenpulse.aggregator.results.RunResults;
import io.tokenpulse.aggregator.results.StoredRun;
import io.tokenpulse.aggregator.results.StoredWindows;
import io.tokenpulse.aggregator.scoring.ServerScoring;
import io.tokenpulse.platform.Platform;
import io.tokenpulse.schemas.Topics;
import io.tokenpulse.schemas.avro.RunEvent;
import io.tokenpulse.schemas.avro.RunStarted;
import io.tokenpulse.schemas.avro.RunSummary;
import io.tokenpulse.schemas.avro.ServerMetric;
import io.tokenpulse.schemas.avro.WindowMetrics;
import io.tokenpulse.schemas.registry.SchemaRegistryClient;
import io.tokenpulse.schemas.registry.SchemaRegistrySettings;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tokenpulse replay} against a run stored by {@code tokenpulse bench} in an embedded platform.
 * The bench run also scrapes the simulator's vLLM-named {@code /metrics} ({@code --server-metrics})
 * and an endpoint that is down, so replay's byte-for-byte check covers the server section too.
 */
class ReplayCommandIT {
    private static final int PROMPTS = 20;

    // One bench run, shared by every test.
    @TempDir
    static Path dataDir;

    @TempDir
    static Path resultDir;

    static JsonNode benchJson;

    static Outcome bench;

    /** Where nothing listens: a scrape endpoint that is down. */
    static int deadPort;

    /** What one command run wrote to stdout and stderr, and its exit code. */
    record Outcome(int code, String out, String err) {}

    static Outcome execute(String... args) {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        PrintStream original = System.out;
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            var cmd = TokenPulse.newCommandLine();
            cmd.setErr(new PrintWriter(err, true));
            int code = cmd.execute(args);
            return new Outcome(code, captured.toString(StandardCharsets.UTF_8), err.toString());
        } finally {
            System.setOut(original);
        }
    }

    /** Thinking tokens of every response: the first 3 of its 8 (a reasoning model, issue 13). */
    private static final int REASONING_TOKENS = 3;

    static String benchOut;

    @BeforeAll
    static void benchStoresRunR1() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            deadPort = socket.getLocalPort(); // closed again: nothing listens there
        }
        bench = execute(
                "bench",
                "--simulate",
                "--simulate-profile",
                "deterministic",
                "--simulate-reasoning-tokens",
                Integer.toString(REASONING_TOKENS),
                "--backend",
                "openai-chat",
                "--endpoint",
                "/v1/chat/completions",
                "--dataset-name",
                "random",
                "--num-prompts",
                Integer.toString(PROMPTS),
                "--request-rate",
                "50",
                "--random-input-len",
                "32",
                "--random-output-len",
                "8",
                "--ignore-eos",
                "--disable-tqdm",
                "--server-metrics",
                "--server-metrics-interval-ms",
                "100",
                "--scrape-url",
                "http://127.0.0.1:" + deadPort + "/metrics",
                "--save-result",
                "--save-detailed",
                "--result-dir",
                resultDir.toString(),
                "--result-filename",
                "bench.json",
                "--run-id",
                "r1",
                "--data-dir",
                dataDir.toString(),
                "--metrics-port",
                "0");
        assertThat(bench.code()).as(bench.out() + bench.err()).isZero();
        benchOut = bench.out();
        benchJson = new ObjectMapper().readTree(Files.readString(resultDir.resolve("bench.json")));
    }

    @Test
    void aReasoningRunsFirstOutputTokenComesTheThinkingTokensGapsAfterTtft() {
        assertThat(benchOut)
                .contains("------------Time to First Output Token------------\n"
                        + "Reasoning tokens:                        " + PROMPTS * REASONING_TOKENS)
                .contains("Answer tokens:                           " + PROMPTS * (8 - REASONING_TOKENS))
                .contains("Mean TTFO (ms):", "Median TTFO (ms):", "P99 TTFO (ms):");
        assertThat(benchJson.get("reasoning_requests").asInt()).isEqualTo(PROMPTS);
        assertThat(benchJson.get("total_reasoning_tokens").asInt()).isEqualTo(PROMPTS * REASONING_TOKENS);
        assertThat(benchJson.get("total_answer_tokens").asInt()).isEqualTo(PROMPTS * (8 - REASONING_TOKENS));
        // The deterministic simulator sends token k at 50 + 20 k ms after it got the request: the first
        // answer token (k = 3) 60 ms after the first token, vLLM's TTFT. The client stamps both on
        // arrival, so on a quiet machine TTFO - TTFT is 60 ms; on these shared cores reads come late
        // and together (mean TTFT 458 ms, TTFO 731 ms seen under a load of 12), so this checks what
        // holds under any load: the answer starts after the first token and no later than the last.
        // With n = 8 for every request, mean E2EL = mean TTFT + 7 mean TPOT.
        double ttft = benchJson.get("mean_ttft_ms").asDouble();
        double ttfo = benchJson.get("mean_ttfo_ms").asDouble();
        assertThat(ttfo).as(benchOut).isGreaterThan(ttft);
        assertThat(ttfo)
                .isLessThanOrEqualTo(ttft + 7 * benchJson.get("mean_tpot_ms").asDouble() + 1e-6);
        assertThat(benchJson.get("total_output_tokens").asInt())
                .as("thinking is output, as usage counts it")
                .isEqualTo(PROMPTS * 8);
        // --save-detailed: each request's TTFO beside its TTFT, in seconds; not before it (equal when a
        // late read took the first chunk and the first answer chunk together)
        assertThat(benchJson.get("ttfos")).hasSize(PROMPTS);
        for (int i = 0; i < PROMPTS; i++) {
            assertThat(benchJson.get("ttfos").get(i).asDouble())
                    .as("request " + i)
                    .isGreaterThanOrEqualTo(benchJson.get("ttfts").get(i).asDouble());
        }
    }

    @Test
    void replayRescoresTheStoredRunWithNewPercentilesAndGoodput() throws IOException {
        Outcome replay = execute(
                "replay",
                "--run-id",
                "r1",
                "--data-dir",
                dataDir.toString(),
                "--percentile-metrics",
                "ttft,e2el",
                "--metric-percentiles",
                "50,90",
                "--goodput",
                "ttft:30000",
                "--save-result",
                "--save-detailed",
                "--result-dir",
                resultDir.toString(),
                "--result-filename",
                "replay.json",
                "--metadata",
                "replayed=yes");
        assertThat(replay.code()).as(replay.out() + replay.err()).isZero();
        assertThat(replay.out())
                .contains("============ Serving Benchmark Result ============")
                .contains("Request goodput (req/s):")
                .contains("P90 E2EL (ms):")
                .doesNotContain("TPOT")
                .contains("Result saved to " + resultDir.resolve("replay.json"));

        JsonNode json = new ObjectMapper().readTree(Files.readString(resultDir.resolve("replay.json")));
        // The same stored requests: counts and the metrics both reports show agree with bench's.
        for (String key : new String[] {
            "completed",
            "failed",
            "total_input_tokens",
            "total_output_tokens",
            "mean_ttft_ms",
            "median_ttft_ms",
            "duration",
            "date",
            "model_id"
        }) {
            assertThat(json.get(key)).as(key).isEqualTo(benchJson.get(key));
        }
        assertThat(json.get("completed").asInt()).isEqualTo(PROMPTS);
        assertThat(json.get("total_output_tokens").asInt()).isEqualTo(PROMPTS * 8);
        // New selection: P50/P90 of TTFT and E2EL, no TPOT or ITL; bench had vLLM's ttft,tpot,itl at P99.
        assertThat(json.has("p90_e2el_ms")).isTrue();
        assertThat(json.has("p90_ttfo_ms"))
                .as("TTFO re-scored with the new percentiles")
                .isTrue();
        assertThat(json.get("mean_ttfo_ms")).isEqualTo(benchJson.get("mean_ttfo_ms"));
        assertThat(json.has("p50_ttft_ms")).isTrue();
        assertThat(json.has("p99_ttft_ms")).isFalse();
        assertThat(json.has("mean_tpot_ms")).isFalse();
        assertThat(benchJson.has("p90_e2el_ms")).isFalse();
        // Every TTFT of the deterministic simulator (50 ms, seconds on a loaded machine) is under 30 s: goodput =
        // throughput.
        assertThat(benchJson.get("request_goodput").isNull()).isTrue();
        assertThat(json.get("request_goodput").asDouble())
                .isCloseTo(json.get("request_throughput").asDouble(), within(1e-9))
                .isPositive();
        assertThat(json.get("replayed").asText()).isEqualTo("yes");
        assertThat(json.get("ttfts")).hasSize(PROMPTS);
        assertThat(json.get("output_lens").get(PROMPTS - 1).asInt()).isEqualTo(8);
    }

    /** A run that started and never finished: only its RunStarted record on the embedded platform in {@code dataDir}. */
    static void publishOnlyRunStarted(Path dataDir, String runId) {
        try (Platform platform = Platform.start(new Platform.Settings(dataDir, 0, 0))) {
            Topics topics = Topics.create(
                    new SchemaRegistryClient(
                            SchemaRegistrySettings.of(platform.registryUrl().toString())),
                    true);
            try (KafkaProducer<String, RunEvent> producer = new KafkaProducer<>(
                    Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, platform.bootstrapServers()),
                    new StringSerializer(),
                    topics.runs().valueSerde().serializer())) {
                producer.send(new ProducerRecord<>(
                        topics.runs().name(),
                        runId,
                        new RunEvent(
                                runId,
                                0,
                                1,
                                RunStarted.newBuilder()
                                        .setScheduleStartEpochNs(System.currentTimeMillis() * 1_000_000L)
                                        .setBackend("vllm")
                                        .setModelId("m")
                                        .setTokenizerId("t")
                                        .setEndpointUrl("http://127.0.0.1:1/")
                                        .setNumPrompts(5)
                                        .setRequestRate(1.0)
                                        .setBurstiness(1.0)
                                        .setMaxConcurrency(null)
                                        .setPercentileMetrics("ttft")
                                        .setMetricPercentiles("99")
                                        .setGoodput(null)
                                        .setConfigJson("{}")
                                        .setTokenpulseVersion("test")
                                        .build())));
            }
        }
    }

    /**
     * Bench's result file without the client CPU keys: they are facts of the bench process, not of
     * the stored run, so replay cannot reproduce them.
     */
    static String withoutClientCpu(String benchJson) {
        String without = benchJson.replaceAll("\"client_[a-z0-9_]+\": [^,]+, ", "");
        assertThat(without).doesNotContain("client_");
        return without;
    }

    @Test
    void replayWithoutNewOptionsReproducesTheBenchJson() throws IOException {
        Outcome replay = execute(
                "replay",
                "--run-id",
                "r1",
                "--data-dir",
                dataDir.toString(),
                "--save-result",
                "--result-dir",
                resultDir.toString(),
                "--save-detailed",
                "--result-filename",
                "same.json");
        assertThat(replay.code()).as(replay.out() + replay.err()).isZero();
        String benchWithoutClientCpu = withoutClientCpu(Files.readString(resultDir.resolve("bench.json")));
        assertThat(Files.readString(resultDir.resolve("same.json"))).isEqualTo(benchWithoutClientCpu);
    }

    @Test
    void benchScrapedTheServerIntoTheTopicTheWindowsAndTheSectionAndADeadEndpointIsOnlyCounted() {
        // the server section follows the block, from the simulator's vLLM names
        assertThat(bench.out())
                .contains("------------Server (scraped /metrics)-------------")
                .containsPattern("Server max running requests: +[1-9]")
                .contains("Server preemptions:                      0.00")
                .contains("Server median TTFT (ms):")
                .contains("Client minus server mean TTFT (ms):");
        assertThat(benchJson.get("server_max_running").asDouble()).isGreaterThan(0);
        // the deterministic profile keeps no KV cache, but the series is there
        assertThat(benchJson.get("server_peak_kv_cache_usage").asDouble()).isZero();
        assertThat(benchJson.get("server_prefix_cache_hit_rate").asDouble()).isZero();
        // the deterministic simulator's first token comes 50 ms after the request reached it
        double serverTtftMs = benchJson.get("server_mean_ttft_ms").asDouble();
        assertThat(serverTtftMs).isCloseTo(50, within(10.0));
        assertThat(benchJson.get("server_ttft_gap_ms").asDouble())
                .isCloseTo(benchJson.get("mean_ttft_ms").asDouble() - serverTtftMs, within(1e-9));

        try (Platform platform = Platform.start(new Platform.Settings(dataDir, 0, 0))) {
            Topics topics = Topics.create(
                    new SchemaRegistryClient(
                            SchemaRegistrySettings.of(platform.registryUrl().toString())),
                    true);
            Properties client = new Properties();
            client.put("bootstrap.servers", platform.bootstrapServers());
            StoredRun stored = StoredRun.read(topics, client, "r1", Duration.ofSeconds(10));
            List<ServerMetric> records = stored.serverMetrics();
            // RunFinished announced every record of the scrapes (the last one taken before it, the dead
            // endpoint's none), and the run-summaries record carries the section the block printed
            assertThat(stored.storedShards().orElseThrow().serverMetricRecords())
                    .hasValue(records.size());
            RunSummary summary;
            try (RunResults results = RunResults.open(topics, client, "r1", Instant.EPOCH, false)) {
                summary = results.awaitSummary(Duration.ofSeconds(10)).orElseThrow();
            }
            Map<String, Double> section = ServerScoring.values(summary.getServer());
            assertThat(section).containsKeys("server_max_running", "server_mean_ttft_ms", "server_ttft_gap_ms");
            section.forEach((key, value) ->
                    assertThat(benchJson.get(key).asDouble()).as(key).isEqualTo(value));
            assertThat(benchJson.fieldNames())
                    .toIterable()
                    .filteredOn(key -> key.startsWith("server_"))
                    .containsExactlyElementsOf(section.keySet());
            Map<String, List<ServerMetric>> byName = records.stream().collect(Collectors.groupingBy(r -> r.getName()));
            assertThat(records).allSatisfy(r -> {
                assertThat(r.getRunId()).isEqualTo("r1");
                assertThat(r.getSource()).endsWith("/metrics").doesNotContain(":" + deadPort);
            });
            assertThat(byName.get("vllm:num_requests_running"))
                    .extracting(ServerMetric::getValue)
                    .anySatisfy(running -> assertThat(running).isGreaterThan(0));
            ServerMetric lastTtft = byName.get("vllm:time_to_first_token_seconds").stream()
                    .max((a, b) -> Long.compare(a.getScrapeEpochNs(), b.getScrapeEpochNs()))
                    .orElseThrow();
            assertThat(lastTtft.getType()).isEqualTo("histogram");
            // the initial test request and the 20 of the run
            assertThat(lastTtft.getCount()).isEqualTo(PROMPTS + 1.0);
            assertThat(lastTtft.getBuckets()).last().satisfies(b -> {
                assertThat(b.getLe()).isInfinite();
                assertThat(b.getCount()).isEqualTo(PROMPTS + 1.0);
            });
            assertThat(lastTtft.getLabels()).containsEntry("model_name", "facebook/opt-125m");

            // the aggregator joined the scrapes onto the run's windows
            List<WindowMetrics> windows = StoredWindows.read(topics, client, "r1", Duration.ofSeconds(10))
                    .windows();
            assertThat(windows).anySatisfy(w -> {
                assertThat(w.getServerMaxRunning()).isPositive();
                assertThat(w.getServerMeanTtftMs()).isCloseTo(50, within(10.0));
            });
            assertThat(windows.stream().mapToLong(WindowMetrics::getCompleted).sum())
                    .isEqualTo(PROMPTS);
            // every request thought, so the windows carry its TTFO
            assertThat(windows.stream()
                            .flatMap(w -> w.getLatencies().stream())
                            .filter(l -> l.getMetric().equals("ttfo"))
                            .mapToLong(l -> l.getCount())
                            .sum())
                    .isEqualTo(PROMPTS);
        }
    }

    @Test
    void unknownRunIdIsOneLineListingTheRunsSeen() {
        Outcome replay = execute("replay", "--run-id", "nope", "--data-dir", dataDir.toString());
        assertThat(replay.code()).isEqualTo(1);
        // r2 appears too when the never-finished test ran first; it is newer, so it comes first.
        assertThat(replay.err().lines().toList())
                .singleElement()
                .asString()
                .matches(
                        "replay: no run nope in topic tokenpulse\\.runs; runs seen: (r2, )?r1 \\(latest first, up to 10\\)");
    }

    @Test
    void runThatNeverFinishedIsReportedWithWhatIsMissingAfterTheWait() {
        publishOnlyRunStarted(dataDir, "r2");
        Outcome replay = execute("replay", "--run-id", "r2", "--data-dir", dataDir.toString(), "--wait-s", "1");
        assertThat(replay.code()).isEqualTo(1);
        assertThat(replay.err().lines().toList())
                .containsExactly("replay: run r2 is not complete after waiting 1 s: "
                        + "missing RunFinished of shard 0 of 1 (0 request metrics so far); did the run and its aggregator finish?"
                        + " (--allow-incomplete reads what is stored)");
    }

    @Test
    void malformedGoodputIsAUsageError() {
        Outcome replay = execute("replay", "--run-id", "r1", "--data-dir", dataDir.toString(), "--goodput", "ttft=5");
        assertThat(replay.code()).isEqualTo(2);
        assertThat(replay.err().lines().toList())
                .singleElement()
                .asString()
                .startsWith("replay: bad --goodput pair 'ttft=5'");
    }

    @Test
    void unknownPercentileMetricIsAUsageError() {
        Outcome replay = execute(
                "replay", "--run-id", "r1", "--data-dir", dataDir.toString(), "--percentile-metrics", "ttft,latency");
        assertThat(replay.code()).isEqualTo(2);
        assertThat(replay.err().lines().toList())
                .singleElement()
                .asString()
                .startsWith("replay: --percentile-metrics: ");
        // TTFO comes by itself in a reasoning run; naming it says so instead of listing vLLM's names
        Outcome ttfo = execute(
                "replay", "--run-id", "r1", "--data-dir", dataDir.toString(), "--percentile-metrics", "ttft,ttfo");
        assertThat(ttfo.code()).isEqualTo(2);
        assertThat(ttfo.err().lines().toList())
                .singleElement()
                .asString()
                .startsWith("replay: --percentile-metrics: ttfo is not one of vLLM's metrics;")
                .endsWith("leave ttfo out");
    }
}
