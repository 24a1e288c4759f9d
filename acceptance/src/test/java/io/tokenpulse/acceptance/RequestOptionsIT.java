package io.tokenpulse.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The request options of current {@code vllm bench serve} through the shipped jar, against
 * {@code ./tokenpulse simulate --tls} in its own process: https with {@code --insecure} (and its
 * refusal without), {@code --model} taken from {@code /v1/models}, {@code --num-warmups},
 * {@code --extra-body} and the penalties, {@code --label}, {@code --input-len/--output-len},
 * {@code --use-beam-search} and {@code --tokenizer-mode slow}, {@code --ramp-up-*} with vLLM's keys and file
 * name, {@code --lora-modules} with its per-model
 * section against the simulator's adapters.
 */
class RequestOptionsIT {
    @TempDir
    static Path home;

    @TempDir
    static Path logs;

    @TempDir
    static Path work;

    static Tokenpulse tokenpulse;
    static LocalSimulator simulator;

    @BeforeAll
    static void startSimulator() throws InterruptedException {
        tokenpulse = new Tokenpulse(home, logs);
        // gpt2: a model id whose tokenizer loads offline, so bench can take it from /v1/models
        simulator = LocalSimulator.start(
                tokenpulse,
                "--model",
                "gpt2",
                "--profile",
                "deterministic",
                "--ttft-ms",
                "10",
                "--gap-ms",
                "2",
                "--tls",
                "--lora-modules",
                "sql-lora",
                "chat-lora");
        assertThat(simulator.baseUrl()).as("--tls serves https").startsWith("https://");
    }

    @AfterAll
    static void stopSimulator() {
        if (simulator != null) {
            simulator.close();
        }
    }

    private static Tokenpulse.Result bench(String... flags) {
        List<String> args = simulator.bench(
                "--dataset-name",
                "random",
                "--num-prompts",
                "8",
                "--request-rate",
                "inf",
                "--metrics-port",
                "0",
                "--data-dir",
                work.resolve("data").toString());
        args.addAll(List.of(flags));
        return tokenpulse.run(Tokenpulse.ROOT, Duration.ofMinutes(3), args);
    }

    @Test
    void httpsWithInsecureTakesTheServersModelWarmsUpAndMergesTheExtraBody() throws IOException {
        Path results = work.resolve("results");
        Tokenpulse.Result run = bench(
                "--insecure",
                "--input-len",
                "16",
                "--output-len",
                "6",
                "--ignore-eos",
                "--num-warmups",
                "3",
                // vLLM's payload.update(extra_body): max_tokens 3 replaces --output-len's 6
                "--extra-body",
                "{\"max_tokens\": 3, \"chat_template_kwargs\": {\"enable_thinking\": false}}",
                "--frequency-penalty",
                "0.1",
                "--presence-penalty",
                "0.2",
                "--repetition-penalty",
                "1.05",
                "--label",
                "nightly",
                // vLLM's ramp-up: its keys, rps_change_events and file name
                "--ramp-up-strategy",
                "linear",
                "--ramp-up-start-rps",
                "2",
                "--ramp-up-end-rps",
                "6",
                // accepted and ignored as vLLM does; slow counts with the same tokenizer.json
                "--use-beam-search",
                "--tokenizer-mode",
                "slow",
                "--save-result",
                "--result-dir",
                results.toString());

        BenchAgainstSimulatorIT.assertCompleted(run, 8);
        assertThat(run.stdoutLines())
                .as(run.toString())
                .containsSubsequence(
                        "Model not specified, fetching first model from server...",
                        "First model name: gpt2, first model id: gpt2",
                        "Checking server health at " + simulator.baseUrl() + "/health",
                        "Server is ready!",
                        "Starting initial single prompt test run...",
                        "Initial test run completed.",
                        "Warming up with 3 requests...",
                        "Warmup run completed.",
                        "Starting main benchmark run...");
        Path file;
        try (Stream<Path> files = Files.list(results)) {
            file = files.filter(p -> p.getFileName().toString().startsWith("nightly-ramp-up-linear-2qps-6qps-gpt2-"))
                    .findFirst()
                    .orElseThrow(
                            () -> new AssertionError("no nightly-ramp-up-linear-2qps-6qps-gpt2-*.json in " + results));
        }
        JsonNode json = new ObjectMapper().readTree(file.toFile());
        assertThat(json.get("label").asText()).isEqualTo("nightly");
        assertThat(json.get("model_id").asText()).isEqualTo("gpt2");
        assertThat(json.get("ramp_up_strategy").asText()).isEqualTo("linear");
        assertThat(json.get("ramp_up_start_rps").isIntegralNumber()).isTrue();
        assertThat(json.get("ramp_up_end_rps").asInt()).isEqualTo(6);
        // 8 requests at rates 2 + 4 i / 7: whole rates 2 (at the start), 3, 4, 5, 6
        JsonNode steps = json.get("rps_change_events");
        assertThat(steps).hasSize(5);
        assertThat(steps.get(0).get("rps").asInt()).isEqualTo(2);
        assertThat(steps.get(4).get("rps").asInt()).isEqualTo(6);
        assertThat(steps.get(4).get("timestamp").asText())
                .isGreaterThan(steps.get(0).get("timestamp").asText());
        assertThat(json.get("completed").asInt()).as("warm-ups are not counted").isEqualTo(8);
        // the server re-tokenizes the decoded random tokens (fewer after BPE merges); without
        // --input-len the default 1024 would send 8192
        assertThat(json.get("total_input_tokens").asInt()).as("--input-len").isBetween(8, 8 * 16);
        assertThat(json.get("total_output_tokens").asInt())
                .as("--extra-body's max_tokens")
                .isEqualTo(8 * 3);
    }

    @Test
    void loraAdaptersSpreadRoundRobinGetAPerModelSectionAndJson() throws IOException {
        Path results = work.resolve("lora");
        Tokenpulse.Result run = bench(
                "--insecure",
                "--model",
                "gpt2",
                "--lora-modules",
                "sql-lora",
                "chat-lora",
                "--lora-assignment",
                "round-robin",
                "--output-len",
                "4",
                "--input-len",
                "8",
                "--ignore-eos",
                "--save-result",
                "--result-dir",
                results.toString(),
                "--result-filename",
                "lora.json");

        BenchAgainstSimulatorIT.assertCompleted(run, 8);
        assertThat(run.stdoutLines())
                .as(run.toString())
                .containsSubsequence(
                        "============ Serving Benchmark Result ============",
                        "==================================================",
                        "================ Per Served Model ================",
                        "------------------- chat-lora --------------------",
                        "-------------------- sql-lora --------------------",
                        "==================================================")
                .anySatisfy(line -> assertThat(line).matches("P99 ITL \\(ms\\): +[0-9.]+ *"));
        JsonNode perModel = new ObjectMapper()
                .readTree(results.resolve("lora.json").toFile())
                .get("per_model");
        assertThat(perModel).hasSize(2);
        assertThat(perModel.get(0).get("model").asText()).isEqualTo("chat-lora");
        assertThat(perModel.get(1).get("model").asText()).isEqualTo("sql-lora");
        assertThat(perModel.get(0).get("completed").asInt())
                .as("8 requests round-robin")
                .isEqualTo(4);
        assertThat(perModel.get(1).get("completed").asInt()).isEqualTo(4);
        assertThat(perModel.get(0).has("p99_ttft_ms")).isTrue();
    }

    @Test
    void httpsWithoutInsecureIsOneLineNamingTheFlag() {
        Tokenpulse.Result run = bench("--model", "gpt2");

        assertThat(run.exitCode()).as(run.toString()).isNotZero();
        assertThat(run.stderrLines()).as(run.toString()).hasSize(1);
        assertThat(run.stderrLines().get(0))
                .as(run.toString())
                .contains("presented a certificate this machine does not trust")
                .contains("pass --insecure");
    }
}
