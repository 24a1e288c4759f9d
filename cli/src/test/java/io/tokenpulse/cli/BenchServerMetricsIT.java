package io.tokenpulse.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tokenpulse.platform.Platform;
import io.tokenpulse.schemas.Topics;
import io.tokenpulse.schemas.avro.ServerMetric;
import io.tokenpulse.schemas.registry.SchemaRegistryClient;
import io.tokenpulse.schemas.registry.SchemaRegistrySettings;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bench --simulate --server-metrics} scrapes the simulator's vLLM-named /metrics during the run
 * into the server-metrics topic; an endpoint that is down is counted and the run goes on.
 */
class BenchServerMetricsIT {

    @TempDir
    Path dataDir;

    @TempDir
    Path resultDir;

    @Test
    void scrapesOfTheSimulatorReachTheTopicAndADeadEndpointIsOnlyCounted() throws Exception {
        int deadPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            deadPort = socket.getLocalPort(); // closed again: nothing listens there
        }
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream original = System.out;
        int code;
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            code = TokenPulse.newCommandLine()
                    .execute(
                            "bench",
                            "--simulate",
                            "--simulate-speedup",
                            "5",
                            "--dataset-name",
                            "random",
                            "--num-prompts",
                            "20",
                            "--request-rate",
                            "inf",
                            "--random-input-len",
                            "32",
                            "--random-output-len",
                            "16",
                            "--ignore-eos",
                            "--disable-tqdm",
                            "--server-metrics",
                            "--server-metrics-interval-ms",
                            "100",
                            "--scrape-url",
                            "http://127.0.0.1:" + deadPort + "/metrics",
                            "--save-result",
                            "--result-dir",
                            resultDir.toString(),
                            "--result-filename",
                            "run.json",
                            "--run-id",
                            "scraped-run",
                            "--data-dir",
                            dataDir.toString(),
                            "--metrics-port",
                            "0");
        } finally {
            System.setOut(original);
        }
        String out = captured.toString(StandardCharsets.UTF_8);
        assertThat(code).as(out).isZero();
        assertThat(out).contains("Successful requests:                     20");
        // the server section follows the block, from the simulator's vLLM names
        assertThat(out)
                .contains("------------Server (scraped /metrics)-------------")
                .containsPattern("Server max running requests: +[1-9]")
                .contains("Server preemptions:                      0.00")
                .contains("Server median TTFT (ms):");
        JsonNode json =
                new ObjectMapper().readTree(resultDir.resolve("run.json").toFile());
        assertThat(json.get("server_max_running").asDouble()).isGreaterThan(0);
        assertThat(json.get("server_peak_kv_cache_usage").asDouble()).isGreaterThan(0);
        assertThat(json.get("server_prefix_cache_hit_rate").asDouble()).isZero();
        assertThat(json.get("server_mean_ttft_ms").asDouble())
                .isGreaterThan(0)
                .isLessThanOrEqualTo(json.get("mean_ttft_ms").asDouble());

        List<ServerMetric> records = read("scraped-run");
        Map<String, List<ServerMetric>> byName = records.stream().collect(Collectors.groupingBy(r -> r.getName()));
        assertThat(records).allSatisfy(r -> {
            assertThat(r.getRunId()).isEqualTo("scraped-run");
            assertThat(r.getSource()).endsWith("/metrics").doesNotContain(":" + deadPort);
        });
        // the 20 requests queued at once: some scrape saw them running
        assertThat(byName.get("vllm:num_requests_running"))
                .extracting(ServerMetric::getValue)
                .anySatisfy(running -> assertThat(running).isGreaterThan(0));
        ServerMetric lastTtft = byName.get("vllm:time_to_first_token_seconds").stream()
                .max((a, b) -> Long.compare(a.getScrapeEpochNs(), b.getScrapeEpochNs()))
                .orElseThrow();
        assertThat(lastTtft.getType()).isEqualTo("histogram");
        // the initial test request and the 20 of the run
        assertThat(lastTtft.getCount()).isEqualTo(21.0);
        assertThat(lastTtft.getBuckets()).last().satisfies(b -> {
            assertThat(b.getLe()).isInfinite();
            assertThat(b.getCount()).isEqualTo(21.0);
        });
        assertThat(lastTtft.getLabels()).containsEntry("model_name", "facebook/opt-125m");
    }

    private List<ServerMetric> read(String runId) {
        try (Platform platform = Platform.start(new Platform.Settings(dataDir, 0, 0))) {
            Topics topics = Topics.create(
                    new SchemaRegistryClient(
                            SchemaRegistrySettings.of(platform.registryUrl().toString())),
                    true);
            try (KafkaConsumer<String, ServerMetric> consumer = new KafkaConsumer<>(
                    Map.of(
                            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                            platform.bootstrapServers(),
                            ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                            "read_committed"),
                    new StringDeserializer(),
                    topics.serverMetrics().valueSerde().deserializer())) {
                List<TopicPartition> partitions = consumer
                        .partitionsFor(topics.serverMetrics().name())
                        .stream()
                        .map(p -> new TopicPartition(p.topic(), p.partition()))
                        .toList();
                consumer.assign(partitions);
                consumer.seekToBeginning(partitions);
                Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
                List<ServerMetric> records = new ArrayList<>();
                while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                    consumer.poll(Duration.ofMillis(500)).forEach(r -> {
                        if (r.key().equals(runId)) {
                            records.add(r.value());
                        }
                    });
                }
                return records;
            }
        }
    }
}
