package io.tokenpulse.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The pooling backends ({@code openai-embeddings}, {@code vllm-rerank}, {@code vllm-score}) through the
 * shipped {@code ./tokenpulse}: {@code bench} against {@code simulate} running as its own process, each
 * request one answer with no streamed event, through Kafka and the aggregator like every request, and
 * vLLM's pooling block and result keys at the end. A backend given an endpoint of another family is one
 * line before the run.
 */
class PoolingBenchIT {
    private static final int PROMPTS = 4;

    @TempDir
    static Path home;

    @TempDir
    static Path logs;

    @TempDir
    static Path work;

    static Tokenpulse tokenpulse;
    static LocalSimulator simulator;

    @BeforeAll
    static void startSimulator() throws Exception {
        tokenpulse = new Tokenpulse(home, logs);
        simulator =
                LocalSimulator.start(tokenpulse, "--model", "gpt2", "--profile", "deterministic", "--ttft-ms", "20");
    }

    @AfterAll
    static void stopSimulator() {
        if (simulator != null) {
            simulator.close();
        }
    }

    @ParameterizedTest(name = "{0} at {1}")
    @CsvSource({"openai-embeddings, /v1/embeddings", "vllm-rerank, /rerank", "vllm-score, /v1/score"})
    void aPoolingRunPrintsVllmsPoolingBlockAndSavesItsKeys(String backend, String endpoint) throws IOException {
        String resultName = backend + ".json";
        Tokenpulse.Result run = tokenpulse.run(
                Tokenpulse.ROOT,
                Duration.ofMinutes(3),
                simulator.bench(
                        "--backend",
                        backend,
                        "--endpoint",
                        endpoint,
                        "--model",
                        "gpt2",
                        "--dataset-name",
                        "random",
                        "--random-input-len",
                        "32",
                        "--num-prompts",
                        Integer.toString(PROMPTS),
                        "--metrics-port",
                        "0",
                        "--data-dir",
                        work.resolve("data").toString(),
                        "--save-result",
                        "--result-dir",
                        work.resolve("results").toString(),
                        "--result-filename",
                        resultName));

        assertThat(run.exitCode()).as(run.toString()).isZero();
        run.assertQuietStderr();
        assertThat(run.stdoutLines().get(0)).contains("percentile_metrics='e2el'");
        List<String> block = block(run.stdoutLines());
        assertThat(block)
                .as(run.toString())
                // each line's label (its first 40 characters), the title and rules whole
                .extracting(line -> line.startsWith("=") || line.startsWith("-")
                        ? line
                        : line.substring(0, 40).strip())
                .containsExactly(
                        "============ Serving Benchmark Result ============",
                        "Successful requests:",
                        "Failed requests:",
                        "Benchmark duration (s):",
                        "Total input tokens:",
                        "Request throughput (req/s):",
                        "Total token throughput (tok/s):",
                        "----------------End-to-end Latency----------------",
                        "Mean E2EL (ms):",
                        "Median E2EL (ms):",
                        "P99 E2EL (ms):",
                        "==================================================");
        assertThat(block.get(1)).matches("Successful requests: +" + PROMPTS + " *");
        assertThat(block.get(2)).matches("Failed requests: +0 *");

        JsonNode result = new ObjectMapper()
                .readTree(work.resolve("results").resolve(resultName).toFile());
        assertThat(result.get("backend").asText()).isEqualTo(backend);
        assertThat(result.get("completed").asInt()).isEqualTo(PROMPTS);
        assertThat(result.get("total_input_tokens").asLong()).isPositive();
        assertThat(result.get("total_output_tokens").asLong()).isZero();
        assertThat(result.get("request_throughput").asDouble()).isPositive();
        assertThat(result.get("total_token_throughput").asDouble())
                .isEqualTo(result.get("total_input_tokens").asDouble()
                        / result.get("duration").asDouble());
        for (String key : List.of("duration", "mean_e2el_ms", "median_e2el_ms", "std_e2el_ms", "p99_e2el_ms")) {
            assertThat(result.has(key)).as(key).isTrue();
        }
        // the deterministic simulator answers after its 20 ms "prefill"
        assertThat(result.get("mean_e2el_ms").asDouble()).isGreaterThanOrEqualTo(20.0);
        assertThat(result.has("mean_ttft_ms")).isFalse();
        assertThat(result.has("mean_itl_ms")).isFalse();
    }

    @ParameterizedTest(name = "{0} at {1}")
    @CsvSource({"openai-embeddings, /v1/completions, /v1/embeddings", "vllm-rerank, /v1/embeddings, /v1/rerank"})
    void anEndpointOfAnotherFamilyIsOneLineBeforeTheRun(String backend, String endpoint, String suggested) {
        Tokenpulse.Result run = tokenpulse.run(
                Tokenpulse.ROOT,
                Duration.ofMinutes(2),
                simulator.bench(
                        "--backend",
                        backend,
                        "--endpoint",
                        endpoint,
                        "--model",
                        "gpt2",
                        "--dataset-name",
                        "random",
                        "--num-prompts",
                        "2",
                        "--metrics-port",
                        "0",
                        "--data-dir",
                        work.resolve("bad").toString()));

        assertThat(run.exitCode()).as(run.toString()).isNotZero();
        assertThat(run.stderrLines()).as(run.toString()).hasSize(1);
        assertThat(run.stderrLines().get(0))
                .contains("backend " + backend, "'" + endpoint + "'", "--endpoint " + suggested)
                .doesNotContain("Exception");
        assertThat(run.stdoutLines()).noneMatch(line -> line.contains("Serving Benchmark Result"));
    }

    /** The block's lines, from its title to its closing rule. */
    private static List<String> block(List<String> stdout) {
        List<String> lines = new ArrayList<>();
        boolean in = false;
        for (String line : stdout) {
            if (line.startsWith("============ Serving Benchmark Result")) {
                in = true;
            }
            if (in) {
                lines.add(line);
                if (line.equals("=".repeat(50))) {
                    break;
                }
            }
        }
        return lines;
    }
}
