package io.tokenpulse.acceptance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

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
 * {@code ./tokenpulse bench} against {@code ./tokenpulse simulate} running as its own process, as
 * against a real server: a Hugging Face tokenizer folder with a chat template (Qwen3's) for the
 * {@code openai} and {@code openai-chat} backends, and a GPT-2 model id whose tokenizer works
 * offline. The three runs share one data directory, as a user's consecutive runs do, and each sends
 * its records with another of Kafka's codecs (lz4, snappy, gzip), which load from the jar.
 */
class BenchAgainstSimulatorIT {
    static final String QWEN = "Qwen/Qwen3-0.6B";

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
        simulator = LocalSimulator.start(
                tokenpulse,
                "--model",
                QWEN + ",gpt2",
                "--tokenizer",
                Tokenpulse.QWEN3.toString(),
                "--profile",
                "deterministic",
                "--ttft-ms",
                "20",
                "--gap-ms",
                "5",
                // a reasoning model's chat: its first 2 tokens are thinking (completions have none)
                "--reasoning-tokens",
                "2");
    }

    @AfterAll
    static void stopSimulator() {
        if (simulator != null) {
            simulator.close();
        }
    }

    private static Tokenpulse.Result bench(String resultName, String... flags) {
        List<String> args = simulator.bench(
                "--num-prompts",
                "12",
                "--request-rate",
                "inf",
                "--metrics-port",
                "0",
                "--data-dir",
                work.resolve("data").toString(),
                "--save-result",
                "--result-dir",
                work.resolve("results").toString(),
                "--result-filename",
                resultName);
        args.addAll(List.of(flags));
        return tokenpulse.run(Tokenpulse.ROOT, Duration.ofMinutes(3), args);
    }

    private static JsonNode result(String name) throws IOException {
        return new ObjectMapper().readTree(work.resolve("results").resolve(name).toFile());
    }

    static void assertCompleted(Tokenpulse.Result run, int requests) {
        assertThat(run.exitCode()).as(run.toString()).isZero();
        run.assertQuietStderr();
        assertThat(run.stdoutLines())
                .as(run.toString())
                .contains("============ Serving Benchmark Result ============")
                .anySatisfy(line -> assertThat(line).matches("Successful requests: +" + requests + " *"))
                .anySatisfy(line -> assertThat(line).startsWith("Client CPU per streamed event (us):"))
                // A short run on a cold JVM takes more than a tenth of this host's cores, and the
                // simulator is on this host: that warning is right here, and on a loaded machine the
                // client may have been the bottleneck; any other would be a fault.
                .noneSatisfy(line -> assertThat(line)
                        .startsWith("Warning:")
                        .doesNotContain("the client's own CPU may have slowed")
                        .doesNotStartWith("Warning: the client was the bottleneck"));
    }

    @Test
    void openAiCompletionsWithAChatTemplateTokenizer() throws IOException {
        Tokenpulse.Result run = bench(
                "openai.json",
                "--backend",
                "openai",
                "--model",
                QWEN,
                "--tokenizer",
                Tokenpulse.QWEN3.toString(),
                "--dataset-name",
                "random",
                "--random-input-len",
                "32",
                "--random-output-len",
                "8",
                "--ignore-eos",
                "--kafka-property",
                "compression.type=lz4",
                "--server-metrics",
                "--server-metrics-interval-ms",
                "200");

        assertCompleted(run, 12);
        JsonNode json = result("openai.json");
        // the simulator's /metrics, scraped: its deterministic 20 ms TTFT, seen from the server side
        assertThat(run.stdoutLines())
                .contains("------------Server (scraped /metrics)-------------")
                .anySatisfy(line -> assertThat(line).startsWith("Server max running requests:"));
        assertThat(json.get("server_mean_ttft_ms").asDouble()).isCloseTo(20.0, within(0.01));
        assertThat(json.get("server_max_waiting").asDouble()).isZero();
        assertThat(json.get("completed").asInt()).isEqualTo(12);
        assertThat(json.get("total_input_tokens").asInt()).isEqualTo(12 * 32);
        assertThat(json.get("total_output_tokens").asInt()).isEqualTo(12 * 8);
    }

    @Test
    void openAiChatWithTheChatTemplateRenderingSonnetPromptsFromAReasoningModelInCurrentVllmsBlock()
            throws IOException {
        // the sonnet dataset formats every prompt with the tokenizer's chat template (Jinjava)
        Tokenpulse.Result run = bench(
                "chat.json",
                "--backend",
                "openai-chat",
                "--endpoint",
                "/v1/chat/completions",
                "--model",
                QWEN,
                "--tokenizer",
                Tokenpulse.QWEN3.toString(),
                "--dataset-name",
                "sonnet",
                "--dataset-path",
                Tokenpulse.SONNET.toString(),
                "--sonnet-input-len",
                "120",
                "--sonnet-prefix-len",
                "40",
                "--sonnet-output-len",
                "6",
                "--ignore-eos",
                "--kafka-property",
                "compression.type=snappy",
                "--vllm-block",
                "current");

        assertCompleted(run, 12);
        assertThat(run.stdoutLines())
                .as(run.toString())
                .containsSubsequence(
                        "Successful requests:                     12        ",
                        "Failed requests:                         0         ",
                        "Reasoning tokens:                        24        ",
                        "Answer tokens:                           48        ")
                .noneSatisfy(line -> assertThat(line).startsWith("Request rate configured")) // inf
                .anySatisfy(line -> assertThat(line).matches("Peak output token throughput \\(tok/s\\): +[0-9.]+ *"))
                .anySatisfy(line -> assertThat(line).matches("Peak concurrent requests: +[0-9]+\\.00 *"))
                .anySatisfy(line -> assertThat(line).startsWith("Total token throughput (tok/s):"))
                .anySatisfy(line -> assertThat(line).matches("Mean TTFO \\(ms\\): +[0-9.]+ *"));
        JsonNode json = result("chat.json");
        assertThat(json.get("completed").asInt()).isEqualTo(12);
        assertThat(json.get("total_output_tokens").asInt())
                .as("thinking included")
                .isEqualTo(12 * 6);
        assertThat(json.get("total_reasoning_tokens").asInt()).isEqualTo(12 * 2);
        assertThat(json.get("total_answer_tokens").asInt()).isEqualTo(12 * 4);
        assertThat(json.get("mean_ttfo_ms").asDouble())
                .isGreaterThan(json.get("mean_ttft_ms").asDouble());
        assertThat(json.has("max_concurrent_requests")).isTrue();
    }

    @Test
    void gpt2ModelIdWithItsOfflineTokenizer() throws IOException {
        Tokenpulse.Result run = bench(
                "gpt2.json",
                "--backend",
                "vllm",
                "--model",
                "gpt2",
                "--dataset-name",
                "random",
                "--random-input-len",
                "24",
                "--random-output-len",
                "5",
                "--ignore-eos",
                "--kafka-property",
                "compression.type=gzip");

        assertCompleted(run, 12);
        assertThat(result("gpt2.json").get("tokenizer_id").asText()).isEqualTo("gpt2");
        try (Stream<Path> files = Files.list(work.resolve("results"))) {
            assertThat(files.map(p -> p.getFileName().toString())).contains("gpt2.json");
        }
    }
}
