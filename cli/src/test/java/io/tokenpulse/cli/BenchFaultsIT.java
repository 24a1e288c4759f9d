package io.tokenpulse.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tokenpulse.aggregator.exposition.AggregatorMeters;
import io.tokenpulse.aggregator.topology.Aggregator;
import io.tokenpulse.aggregator.topology.StreamsSettings;
import io.tokenpulse.platform.Platform;
import io.tokenpulse.runner.Pipeline;
import io.tokenpulse.schemas.TopicAdmin;
import io.tokenpulse.schemas.Topics;
import io.tokenpulse.schemas.avro.RunEvent;
import io.tokenpulse.schemas.avro.RunFinished;
import io.tokenpulse.schemas.registry.SchemaRegistryClient;
import io.tokenpulse.schemas.registry.SchemaRegistrySettings;
import io.tokenpulse.simulator.SimulatorConfig;
import io.tokenpulse.simulator.SimulatorServer;
import io.tokenpulse.simulator.engine.EngineProfile;
import io.tokenpulse.simulator.faults.FaultPlan;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each simulator fault in a real {@code tokenpulse bench --simulate} run ends as docs/simulator.md
 * ("What a fault does to a bench run") says: in the printed block, in the result file's
 * {@code errors}, in the aggregator's {@code tokenpulse_requests_total{status,reason}} and in the
 * load generator's RunFinished record. One broker, registry and aggregator serve every run (bench
 * with {@code --bootstrap-servers}), so the test can read the aggregator's meters after a run.
 */
class BenchFaultsIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern REQUESTS_TOTAL = Pattern.compile("^tokenpulse_requests_total\\{(.*)} (\\S+)$");
    private static final Pattern TAG = Pattern.compile("(\\w+)=\"([^\"]*)\"");

    @TempDir
    static Path dir;

    private static Platform platform;
    private static Topics topics;
    private static PrometheusMeterRegistry registry;
    private static AggregatorMeters meters;
    private static Aggregator aggregator;

    @BeforeAll
    static void startPipeline() throws Exception {
        platform = Platform.start(new Platform.Settings(dir.resolve("kafka"), 0, 0));
        topics = Topics.create(
                Topics.DEFAULT_PREFIX,
                new SchemaRegistryClient(
                        SchemaRegistrySettings.of(platform.registryUrl().toString())),
                true);
        topics.resolveSchemaIds(); // registers the schemas, which bench then expects of a given registry
        TopicAdmin.ensureExist(topics, client(), Pipeline.DEFAULT_PARTITIONS, (short) 1, Duration.ofSeconds(30));
        // The aggregator bench starts for the embedded platform, here outside so its meters outlive a run.
        registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        meters = AggregatorMeters.register(registry, AggregatorMeters.DEFAULT_FINISHED_RUN_RETENTION);
        aggregator = Aggregator.start(
                topics,
                StreamsSettings.defaults(platform.bootstrapServers()).withStateDir(dir.resolve("streams")),
                client(),
                meters);
        assertThat(aggregator.awaitRunning(Duration.ofSeconds(60))).isTrue();
    }

    @AfterAll
    static void stopPipeline() {
        if (aggregator != null) {
            aggregator.close();
        }
        if (meters != null) {
            meters.close();
        }
        if (platform != null) {
            platform.close();
        }
    }

    @Test
    void failureFaultsAreCountedWithTheirReasonEverywhere() throws Exception {
        // Seed 0 draws these faults for requests 1..40 (request 0, the initial test run, draws none).
        Bench run = bench(
                "faults-failures",
                40,
                "--seed",
                "0",
                "--simulate-fault",
                "500:0.1",
                "--simulate-fault",
                "503:0.1",
                "--simulate-fault",
                "429:0.1",
                "--simulate-fault",
                "reset:0.1",
                "--simulate-fault",
                "malformed:0.1",
                "--simulate-fault",
                "oversized:0.1");

        assertThat(run.exitCode).as(run.out + run.err).isZero();
        assertThat(run.out)
                .containsPattern("Successful requests: +23 ")
                .containsPattern("Failed requests: +17 ")
                .contains("Failures by reason:");
        Map<String, Integer> documented = new LinkedHashMap<>();
        documented.put("^HTTP 500: .*simulated failure.*", 3);
        documented.put("^HTTP 503: .*simulated failure.*", 2);
        documented.put("^HTTP 429: .*simulated failure.*", 2);
        documented.put(
                "^connection to 127\\.0\\.0\\.1:\\d+ failed after \\d+ body bytes: .*Connection reset by peer$", 4);
        documented.put("^malformed event: .*", 3);
        documented.put("^SSE line exceeds the client's limit of 10485760 bytes$", 3);
        assertThat(countByPattern(run.json.get("errors"), documented.keySet())).isEqualTo(documented);
        // The block groups by cause: per-request byte counts and ports are masked, one line per fault.
        Map<String, Integer> grouped = new LinkedHashMap<>();
        grouped.put("^HTTP 500: .*simulated failure.*", 3);
        grouped.put("^HTTP 503: .*simulated failure.*", 2);
        grouped.put("^HTTP 429: .*simulated failure.*", 2);
        grouped.put("^connection to HOST:PORT failed after N body bytes: .*Connection reset by peer$", 4);
        grouped.put("^malformed event: .*", 3);
        grouped.put("^SSE line exceeds the client's limit of N bytes$", 3);
        Map<String, Integer> failureLines = failureLines(run.out);
        assertThat(failureLines).hasSize(grouped.size());
        assertThat(countByPattern(failureLines, grouped.keySet())).isEqualTo(grouped);
        assertThat(run.json.get("completed").asInt()).isEqualTo(23);
        assertThat(run.json.get("failed").asInt()).isEqualTo(17);
        // Failures add no tokens: 23 successes of 8 tokens each.
        assertThat(run.json.get("total_output_tokens").asInt()).isEqualTo(23 * 8);

        assertThat(requestsTotal("faults-failures"))
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "success/none",
                        23L,
                        "failure/http_500",
                        3L,
                        "failure/http_503",
                        2L,
                        "failure/http_429",
                        2L,
                        // reset, malformed and oversized: HTTP 200, then a broken stream
                        "failure/stream",
                        10L));
        RunFinished finished = runFinished("faults-failures");
        assertThat(finished.getRequestsStarted()).isEqualTo(40);
        assertThat(finished.getRequestsSucceeded()).isEqualTo(23);
        assertThat(finished.getRequestsFailed()).isEqualTo(17);
        assertThat(finished.getRecordsNotDelivered()).isZero();
    }

    @Test
    void streamShapeFaultsAndAStallSucceedWithVllmsCounts() throws Exception {
        Bench run = bench(
                "faults-shapes",
                10,
                "--simulate-fault",
                "tokens-per-event=3",
                "--simulate-fault",
                "role-only-first",
                "--simulate-fault",
                "split-utf8",
                "--simulate-fault",
                "no-done",
                "--simulate-fault",
                "stall=1500");

        assertThat(run.exitCode).as(run.out + run.err).isZero();
        assertThat(run.out).containsPattern("Successful requests: +10 ").doesNotContain("Failed requests:");
        assertThat(run.json.get("failed").asInt()).isZero();
        assertThat(run.json.get("errors"))
                .allSatisfy(error -> assertThat(error.asText()).isEmpty());
        // Several tokens per event: the count comes from usage, not from the events.
        assertThat(run.json.get("total_output_tokens").asInt()).isEqualTo(10 * 8);
        assertThat(run.json.get("output_lens"))
                .allSatisfy(n -> assertThat(n.asInt()).isEqualTo(8));
        // The simulator spells each token as a word the bench's tokenizer counts once (" the" for OPT).
        String expectedText = " the€".repeat(8);
        for (int i = 0; i < 10; i++) {
            // Split UTF-8: every € arrived in two writes and is decoded whole.
            assertThat(run.json.get("generated_texts").get(i).asText()).isEqualTo(expectedText);
            // One ITL per event: the role-only event (vLLM's first), then events of 3, 3 and 2 tokens.
            JsonNode itls = run.json.get("itls").get(i);
            assertThat(itls).hasSize(3);
            // The stall after the first token event is one ITL of at least 1.5 s: a late success.
            assertThat(max(itls)).isGreaterThanOrEqualTo(1.45);
            assertThat(run.json.get("ttfts").get(i).asDouble()).isLessThan(1.0);
        }
        assertThat(requestsTotal("faults-shapes")).containsExactlyEntriesOf(Map.of("success/none", 10L));
        RunFinished finished = runFinished("faults-shapes");
        assertThat(finished.getRequestsSucceeded()).isEqualTo(10);
        assertThat(finished.getRequestsFailed()).isZero();
    }

    @Test
    void streamsStalledPastTheIdleTimeoutAreCountedFailuresAndTheRunEnds() throws Exception {
        // A stall of 10 minutes is a hung server; without --stream-idle-timeout-s the run would wait for it.
        // Seed 2 stalls 4 of requests 1..60 (21, 25, 45, 48) and spares the initial test run (request 0).
        long startNs = System.nanoTime();
        Bench run = bench(
                "faults-stalls",
                60,
                "--seed",
                "2",
                "--simulate-fault",
                "stall=600000:0.05",
                "--stream-idle-timeout-s",
                "1");

        assertThat(Duration.ofNanos(System.nanoTime() - startNs)).isLessThan(Duration.ofSeconds(60));
        assertThat(run.exitCode).as(run.out + run.err).isZero();
        long stalled = 4;
        assertThat(run.json.get("failed").asLong()).isEqualTo(stalled);
        assertThat(run.json.get("completed").asLong()).isEqualTo(60 - stalled);
        assertThat(run.out)
                .containsPattern("Failed requests: +" + stalled + " ")
                .contains(
                        "  " + stalled + " x no bytes from HOST:PORT for N s (stream idle timeout) after N body bytes");
        assertThat(run.json.get("errors"))
                .filteredOn(e -> !e.asText().isEmpty())
                .hasSize((int) stalled)
                .allSatisfy(
                        e -> assertThat(e.asText())
                                .matches(
                                        "no bytes from 127\\.0\\.0\\.1:\\d+ for 1 s \\(stream idle timeout\\) after \\d+ body bytes"));
        // The server answered 200 and the stream broke off: a stream failure.
        assertThat(requestsTotal("faults-stalls"))
                .containsExactlyInAnyOrderEntriesOf(Map.of("success/none", 60 - stalled, "failure/stream", stalled));
        RunFinished finished = runFinished("faults-stalls");
        assertThat(finished.getRequestsFailed()).isEqualTo(stalled);
    }

    @Test
    void aGeneratedTextOverKafkasOneMebibyteDefaultStillGetsItsRunASummary() throws Exception {
        // 131 000 tokens "tok<i>€ " (the simulator's context holds 131 072): about 1.5 MiB of text in one
        // RequestFinished and one RequestMetrics record. `bench --simulate` spells tokens as one word of
        // the bench's tokenizer (7 bytes with the €, under 1 MiB), so this simulator counts by
        // whitespace and spells "tok<i> ". The default profile sped up 1000 times takes seconds, with a
        // KV cache that holds both requests: in one context-sized cache they would preempt each other.
        FaultPlan faults =
                FaultPlan.parse(List.of("tokens-per-event=5000", "split-utf8"), 0); // split-utf8: a € per token
        EngineProfile twoContexts = EngineProfile.DEFAULT.speedUp(1000).withKvCacheTokens(2 * 131_072);
        try (SimulatorServer simulator = SimulatorServer.start(
                SimulatorConfig.batching("facebook/opt-125m", twoContexts).withFaults(faults))) {
            Bench run = bench(
                    "long-text",
                    2,
                    131_000,
                    List.of("--base-url", simulator.baseUri().toString(), "--model", "facebook/opt-125m"));

            assertThat(run.exitCode).as(run.out + run.err).isZero();
            assertThat(run.out).containsPattern("Successful requests: +2 ");
            assertThat(run.json.get("total_output_tokens").asInt()).isEqualTo(2 * 131_000);
            for (JsonNode text : run.json.get("generated_texts")) {
                assertThat(text.asText().getBytes(StandardCharsets.UTF_8).length)
                        .isGreaterThan(1_500_000)
                        .isLessThan(Topics.MAX_GENERATED_TEXT_BYTES);
                assertThat(text.asText()).startsWith("tok0€ ").endsWith("tok130999€ ");
            }
        }
        assertThat(runFinished("long-text").getRecordsNotDelivered()).isZero();
    }

    @Test
    void aFaultOnTheInitialTestRequestStopsTheRunAsVllmDoes() throws Exception {
        Bench run = bench("faults-probe", 5, "--simulate-fault", "503");

        assertThat(run.exitCode).isEqualTo(1);
        assertThat(run.err).contains("Initial test run failed").contains("HTTP 503");
        assertThat(run.out).doesNotContain("Serving Benchmark Result");
    }

    /** One bench run's exit code, printed text and (when saved) result file. */
    private record Bench(int exitCode, String out, String err, JsonNode json) {}

    private static Bench bench(String runId, int prompts, String... faultArgs) throws Exception {
        List<String> target = new ArrayList<>(List.of("--simulate", "--simulate-profile", "deterministic"));
        target.addAll(List.of(faultArgs));
        return bench(runId, prompts, 8, target);
    }

    private static Bench bench(String runId, int prompts, int outputLen, List<String> targetArgs) throws Exception {
        Path results = dir.resolve("results");
        List<String> args = new ArrayList<>(List.of(
                "bench",
                "--dataset-name",
                "random",
                "--num-prompts",
                Integer.toString(prompts),
                "--random-input-len",
                "16",
                "--random-output-len",
                Integer.toString(outputLen),
                "--ignore-eos",
                "--request-rate",
                "inf",
                "--disable-tqdm",
                "--save-result",
                "--save-detailed",
                "--result-dir",
                results.toString(),
                "--result-filename",
                runId + ".json",
                "--run-id",
                runId,
                "--bootstrap-servers",
                platform.bootstrapServers(),
                "--schema-registry-url",
                platform.registryUrl().toString(),
                "--metrics-port",
                "0",
                "--summary-timeout-s",
                "60"));
        args.addAll(targetArgs);
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        PrintStream original = System.out;
        int code;
        // bench prints to System.out, as vLLM's script does.
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            code = TokenPulse.newCommandLine()
                    .setErr(new PrintWriter(err, true))
                    .execute(args.toArray(String[]::new));
        } finally {
            System.setOut(original);
        }
        Path file = results.resolve(runId + ".json");
        JsonNode json = Files.exists(file) ? JSON.readTree(Files.readString(file)) : null;
        return new Bench(code, captured.toString(StandardCharsets.UTF_8), err.toString(), json);
    }

    /** How many errors match each pattern; every non-empty error must match exactly one. */
    private static Map<String, Integer> countByPattern(JsonNode errors, Iterable<String> patterns) {
        Map<String, Integer> byText = new LinkedHashMap<>();
        errors.forEach(error -> {
            if (!error.asText().isEmpty()) {
                byText.merge(error.asText(), 1, Integer::sum);
            }
        });
        return countByPattern(byText, patterns);
    }

    /** The block's "Failures by reason" lines ({@code "  COUNT x REASON"}), keyed by reason. */
    private static Map<String, Integer> failureLines(String out) {
        Map<String, Integer> lines = new LinkedHashMap<>();
        String after = out.substring(out.indexOf("Failures by reason:"));
        Matcher line = Pattern.compile("(?m)^  (\\d+) x (.*)$").matcher(after);
        while (line.find()) {
            lines.put(line.group(2), Integer.parseInt(line.group(1)));
        }
        return lines;
    }

    /** How many failures the texts matching each pattern count; every text must match exactly one. */
    private static Map<String, Integer> countByPattern(Map<String, Integer> lines, Iterable<String> patterns) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        lines.forEach((reason, count) -> {
            List<String> matching = new ArrayList<>();
            patterns.forEach(p -> {
                if (reason.matches(p)) {
                    matching.add(p);
                }
            });
            assertThat(matching).as("patterns matching '%s'", reason).hasSize(1);
            counts.merge(matching.get(0), count, Integer::sum);
        });
        return counts;
    }

    /**
     * The run's {@code tokenpulse_requests_total} series that counted something, as scraped, keyed
     * {@code status/reason} (the series registered at 0 when the run starts are AggregatorMetersTest's).
     */
    private static Map<String, Long> requestsTotal(String runId) {
        Map<String, Long> series = new TreeMap<>();
        for (String line : registry.scrape().split("\n")) {
            Matcher m = REQUESTS_TOTAL.matcher(line);
            if (!m.matches()) {
                continue;
            }
            Map<String, String> tags = new TreeMap<>();
            Matcher tag = TAG.matcher(m.group(1));
            while (tag.find()) {
                tags.put(tag.group(1), tag.group(2));
            }
            long count = (long) Double.parseDouble(m.group(2));
            if (runId.equals(tags.get("run_id")) && count > 0) {
                series.put(tags.get("status") + "/" + tags.get("reason"), count);
            }
        }
        return series;
    }

    /** The load generator's RunFinished record of the run, read back from the runs topic. */
    private static RunFinished runFinished(String runId) {
        Properties props = client();
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        try (KafkaConsumer<String, RunEvent> consumer = new KafkaConsumer<>(
                props,
                topics.runs().keySerde().deserializer(),
                topics.runs().valueSerde().deserializer())) {
            List<TopicPartition> partitions = consumer
                    .partitionsFor(topics.runs().name())
                    .stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (System.nanoTime() < deadline) {
                for (ConsumerRecord<String, RunEvent> record : consumer.poll(Duration.ofMillis(200))) {
                    if (runId.equals(record.key()) && record.value().getEvent() instanceof RunFinished finished) {
                        return finished;
                    }
                }
            }
        }
        throw new AssertionError("no RunFinished for run " + runId);
    }

    private static double max(JsonNode values) {
        double max = Double.NEGATIVE_INFINITY;
        for (JsonNode v : values) {
            max = Math.max(max, v.asDouble());
        }
        return max;
    }

    private static Properties client() {
        Properties props = new Properties();
        props.put("bootstrap.servers", platform.bootstrapServers());
        return props;
    }
}
