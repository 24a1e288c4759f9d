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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bench --backend openai-responses} and {@code --backend anthropic-messages} against
 * {@code ./tokenpulse simulate} in its own process, playing a reasoning model (its first 2 tokens of
 * every streamed answer are thinking), each backend posting to its API's own path without
 * {@code --endpoint}; and a stream that ends without its closing event counted as a failure with
 * the reason naming the event.
 */
class ResponsesAndMessagesIT {

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
                BenchAgainstSimulatorIT.QWEN,
                "--tokenizer",
                Tokenpulse.QWEN3.toString(),
                "--profile",
                "deterministic",
                "--ttft-ms",
                "20",
                "--gap-ms",
                "5",
                "--reasoning-tokens",
                "2");
    }

    @AfterAll
    static void stopSimulator() {
        if (simulator != null) {
            simulator.close();
        }
    }

    /** 12 random prompts of 32 tokens asking for 8 (the deterministic simulator always sends 8). */
    private static List<String> bench(String resultName, String... flags) {
        List<String> args = new ArrayList<>(List.of(
                "bench",
                "--model",
                BenchAgainstSimulatorIT.QWEN,
                "--tokenizer",
                Tokenpulse.QWEN3.toString(),
                "--dataset-name",
                "random",
                "--random-input-len",
                "32",
                "--random-output-len",
                "8",
                "--num-prompts",
                "12",
                "--request-rate",
                "inf",
                "--metrics-port",
                "0",
                "--data-dir",
                work.resolve("data").toString(),
                "--save-result",
                "--save-detailed",
                "--result-dir",
                work.resolve("results").toString(),
                "--result-filename",
                resultName));
        args.addAll(List.of(flags));
        return args;
    }

    private static JsonNode result(String name) throws IOException {
        return new ObjectMapper().readTree(work.resolve("results").resolve(name).toFile());
    }

    @Test
    void responsesApiRunCompletesWithTheServersUsage() throws IOException {
        Tokenpulse.Result run = tokenpulse.run(
                Tokenpulse.ROOT,
                Duration.ofMinutes(3),
                bench("responses.json", "--base-url", simulator.baseUrl(), "--backend", "openai-responses"));

        BenchAgainstSimulatorIT.assertCompleted(run, 12);
        assertThat(run.stdoutLines().get(0)).contains("endpoint='/v1/responses'");
        JsonNode result = result("responses.json");
        assertThat(result.get("completed").asInt()).isEqualTo(12);
        assertThat(result.get("failed").asInt()).isZero();
        assertThat(result.get("total_output_tokens").asInt()).isEqualTo(12 * 8);
        // output_tokens_details.reasoning_tokens of response.completed
        assertThat(result.get("total_reasoning_tokens").asInt()).isEqualTo(12 * 2);
        assertThat(result.get("mean_ttft_ms").asDouble()).isGreaterThan(0);
        assertThat(result.get("mean_ttfo_ms").asDouble())
                .as("the answer starts after the thinking")
                .isGreaterThan(result.get("mean_ttft_ms").asDouble());
        assertThat(result.get("total_input_tokens").asInt())
                .as("usage.input_tokens: the prompt in the chat template")
                .isGreaterThan(12 * 32);
    }

    @Test
    void messagesApiRunCompletesWithTheServersUsage() throws IOException {
        Tokenpulse.Result run = tokenpulse.run(
                Tokenpulse.ROOT,
                Duration.ofMinutes(3),
                bench("messages.json", "--base-url", simulator.baseUrl(), "--backend", "anthropic-messages"));

        BenchAgainstSimulatorIT.assertCompleted(run, 12);
        assertThat(run.stdoutLines().get(0)).contains("endpoint='/v1/messages'");
        JsonNode result = result("messages.json");
        assertThat(result.get("completed").asInt()).isEqualTo(12);
        assertThat(result.get("total_output_tokens").asInt()).isEqualTo(12 * 8);
        // the API reports no reasoning count: the tokenizer counts the thinking_delta text
        assertThat(result.get("total_reasoning_tokens").asInt()).isEqualTo(12 * 2);
        assertThat(result.get("mean_ttft_ms").asDouble()).isGreaterThan(0);
        assertThat(result.get("total_input_tokens").asInt()).isGreaterThan(12 * 32);
    }

    /**
     * The built-in simulator leaves out message_stop of about half the streams. Seed 4 spares the
     * initial test request (whose failure would stop the run, as in vLLM) and hits 5 of the 12.
     */
    @Test
    void aStreamWithoutMessageStopIsCountedAsFailedWithItsReason() throws IOException {
        Tokenpulse.Result run = tokenpulse.run(
                Tokenpulse.ROOT,
                Duration.ofMinutes(3),
                bench(
                        "no-stop.json",
                        "--simulate",
                        "--simulate-profile",
                        "deterministic",
                        "--simulate-fault",
                        "no-done:0.5",
                        "--seed",
                        "4",
                        "--backend",
                        "anthropic-messages"));

        assertThat(run.exitCode()).as(run.toString()).isZero();
        JsonNode result = result("no-stop.json");
        assertThat(result.get("failed").asInt()).as(run.toString()).isPositive();
        assertThat(result.get("completed").asInt()).isPositive();
        assertThat(result.get("completed").asInt() + result.get("failed").asInt())
                .isEqualTo(12);
        List<String> errors = new ArrayList<>();
        result.get("errors").forEach(e -> errors.add(e.asText()));
        assertThat(errors)
                .filteredOn(e -> !e.isEmpty())
                .hasSize(result.get("failed").asInt())
                .containsOnly("stream ended without message_stop");
        assertThat(run.stdoutLines())
                .anySatisfy(line -> assertThat(line).contains("stream ended without message_stop"));
    }

    @Test
    void aChatEndpointForTheMessagesBackendIsOneLineBeforeTheRun() {
        Tokenpulse.Result run = tokenpulse.run(
                Tokenpulse.ROOT,
                Duration.ofMinutes(2),
                bench(
                        "wrong.json",
                        "--simulate",
                        "--simulate-profile",
                        "deterministic",
                        "--backend",
                        "anthropic-messages",
                        "--endpoint",
                        "/v1/chat/completions"));

        BadInputIT.assertOneLineError(
                run,
                2,
                "backend anthropic-messages needs an endpoint path ending in 'messages', got "
                        + "'/v1/chat/completions'; change --endpoint");
    }
}
