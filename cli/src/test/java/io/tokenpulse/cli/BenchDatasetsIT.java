package io.tokenpulse.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tokenpulse.cli.options.TargetOptions;
import io.tokenpulse.tokenizers.Tokenizer;
import io.tokenpulse.tokenizers.TokenizerLoader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tokenpulse bench --simulate} on the sharegpt dataset and the hf dataset's audio, Blazedit and MLPerf rows: small files written here, the
 * embedded broker and registry, the deterministic simulator, the block and the result JSON
 * ({@link ShippedJarDatasetsIT} runs burstgpt and custom through the jar). Token totals are counted here with the tokenizer of the simulator's default
 * model, as vLLM counts them ({@code len(tokenizer(text).input_ids)}: OPT adds one {@code </s>} to
 * every sequence), which is also what the simulator reports as {@code usage.prompt_tokens}.
 */
class BenchDatasetsIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private final Tokenizer opt = new TokenizerLoader(Path.of("no-hub-cache")).load(TargetOptions.SIMULATED_MODEL);

    private int inputIds(String text) {
        return opt.countTokens(text) + opt.numSpecialTokensToAdd();
    }

    /** Runs bench with the common flags; asserts exit code 0 and the block, returns the result JSON. */
    private JsonNode bench(String runId, String... datasetFlags) throws IOException {
        List<String> args = new ArrayList<>(List.of(
                "bench",
                "--simulate",
                "--simulate-profile",
                "deterministic",
                "--request-rate",
                "50",
                "--disable-tqdm",
                "--save-result",
                "--result-dir",
                dir.toString(),
                "--result-filename",
                runId + ".json",
                "--run-id",
                runId,
                "--data-dir",
                dir.resolve("platform").toString(),
                "--metrics-port",
                "0"));
        args.addAll(List.of(datasetFlags));
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream original = System.out;
        int code;
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            code = TokenPulse.newCommandLine().execute(args.toArray(String[]::new));
        } finally {
            System.setOut(original);
        }
        String out = captured.toString(StandardCharsets.UTF_8);
        assertThat(code).as(out).isZero();
        assertThat(out).contains("============ Serving Benchmark Result ============");
        return JSON.readTree(Files.readString(dir.resolve(runId + ".json")));
    }

    private static Map<String, Object> conversation(String prompt, String completion) {
        return new LinkedHashMap<>(Map.of(
                "conversations",
                List.of(Map.of("from", "human", "value", prompt), Map.of("from", "gpt", "value", completion))));
    }

    private static final List<String> PROMPTS = List.of(
            "Explain the theory of relativity in simple terms.",
            "Write a haiku about the sea at night.",
            "What is the capital city of Australia?",
            "Give me three tips for learning to play the guitar.");

    @Test
    void sharegptSendsEveryValidConversationAndDropsTheFilteredOnes() throws IOException {
        List<Object> entries = new ArrayList<>();
        PROMPTS.forEach(
                prompt -> entries.add(conversation(prompt, "A fine answer of a dozen words or so, for the test.")));
        entries.add(conversation("Hi", "A prompt under four tokens is dropped by the filter."));
        Path file = dir.resolve("sharegpt.json");
        JSON.writeValue(file.toFile(), entries);

        JsonNode json = bench(
                "it-sharegpt",
                "--dataset-name",
                "sharegpt",
                "--dataset-path",
                file.toString(),
                "--num-prompts",
                "4",
                "--sharegpt-output-len",
                "6",
                "--ignore-eos");

        assertThat(json.get("completed").asInt()).isEqualTo(4);
        assertThat(json.get("total_input_tokens").asInt())
                .isEqualTo(PROMPTS.stream().mapToInt(this::inputIds).sum());
        assertThat(json.get("total_output_tokens").asInt()).isEqualTo(4 * 6);
    }

    @Test
    void sharegpt4vImagesGoToOpenAiChatAndShortFilesAreOversampled() throws IOException {
        Files.createDirectories(dir.resolve("images"));
        Files.write(dir.resolve("images/cat.png"), new byte[] {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10});
        List<Object> entries = new ArrayList<>();
        for (String prompt : PROMPTS.subList(0, 2)) {
            Map<String, Object> entry = conversation(prompt, "It is a small grey cat sitting on a warm windowsill.");
            entry.put("image", "images/cat.png");
            entries.add(entry);
        }
        Path file = dir.resolve("sharegpt4v.json");
        JSON.writeValue(file.toFile(), entries);

        JsonNode json = bench(
                "it-sharegpt4v",
                "--backend",
                "openai-chat",
                "--endpoint",
                "/v1/chat/completions",
                "--dataset-name",
                "sharegpt",
                "--dataset-path",
                file.toString(),
                "--num-prompts",
                "5",
                "--ignore-eos");

        // 2 conversations oversampled to 5 requests, each asking for its completion's length.
        int completionLen = inputIds("It is a small grey cat sitting on a warm windowsill.");
        assertThat(json.get("completed").asInt()).isEqualTo(5);
        assertThat(json.get("total_output_tokens").asInt()).isEqualTo(5 * completionLen);
    }

    @Test
    void hfBlazeditRowsBelowTheMinimumDistanceAreNotSent() throws IOException {
        // the first row's edit (0.1) is under --blazedit-min-distance: its long file must not be sent
        String longFile = "value = 1\n".repeat(200);
        Path file = Files.write(
                dir.resolve("blazedit.jsonl"),
                List.of(
                        JSON.writeValueAsString(
                                Map.of("code", longFile, "change_request", "Use b.", "norm_distance", 0.1)),
                        JSON.writeValueAsString(
                                Map.of("code", "x = 1", "change_request", "Rename x to y.", "norm_distance", 0.5))));

        JsonNode json = bench(
                "it-hf-blazedit",
                "--dataset-name",
                "hf",
                "--dataset-path",
                file.toString(),
                "--blazedit-min-distance",
                "0.2",
                "--skip-chat-template",
                "--hf-output-len",
                "3",
                "--num-prompts",
                "2",
                "--ignore-eos");

        // the second row twice (oversampled), in Blazedit's prompt (HfDatasetTest has its exact text)
        int sent = json.get("total_input_tokens").asInt();
        assertThat(json.get("completed").asInt()).isEqualTo(2);
        assertThat(sent).isGreaterThan(2 * inputIds("x = 1\nRename x to y.")).isLessThan(inputIds(longFile));
        assertThat(json.get("total_output_tokens").asInt()).isEqualTo(2 * 3);
    }

    @Test
    void hfMlperfRowsAskForTheReferenceAnswersTokensWithoutSpecialTokens() throws IOException {
        String answer = "The capital of France is Paris, a city on the Seine.";
        Path file = Files.write(
                dir.resolve("mlperf.jsonl"),
                List.of(JSON.writeValueAsString(Map.of(
                        "system_prompt", "You are a helpful geography tutor.",
                        "question", "What is the capital of France?",
                        "output", answer))));

        JsonNode json = bench(
                "it-hf-mlperf",
                "--dataset-name",
                "hf",
                "--dataset-path",
                file.toString(),
                "--skip-chat-template",
                "--num-prompts",
                "2",
                "--ignore-eos");

        assertThat(json.get("completed").asInt()).isEqualTo(2);
        // OPT's </s> is counted in the prompt, not in the answer's length (add_special_tokens=False)
        assertThat(json.get("total_input_tokens").asInt())
                .isEqualTo(2 * inputIds("You are a helpful geography tutor.\n\nWhat is the capital of France?"));
        assertThat(json.get("total_output_tokens").asInt()).isEqualTo(2 * opt.countTokens(answer));
    }

    @Test
    void hfAsrClipsGoToOpenAiAudioInsteadOfTheSyntheticTone() throws IOException {
        List<String> rows = new ArrayList<>();
        // 1 s, then 0.25 s and 0.5 s at 16 kHz: --asr-max-audio-len-sec 0.75 skips the first, in file order
        for (int samples : List.of(16_000, 4_000, 8_000)) {
            rows.add(JSON.writeValueAsString(
                    Map.of("audio", Map.of("array", new double[samples], "sampling_rate", 16_000), "text", "hello")));
        }
        Path file = Files.write(dir.resolve("asr.jsonl"), rows);

        JsonNode json = bench(
                "it-hf-asr",
                "--backend",
                "openai-audio",
                "--endpoint",
                "/v1/audio/transcriptions",
                "--dataset-name",
                "hf",
                "--dataset-path",
                file.toString(),
                "--hf-output-len",
                "5",
                "--asr-max-audio-len-sec",
                "0.75",
                "--num-prompts",
                "2",
                "--disable-shuffle");

        assertThat(json.get("completed").asInt()).isEqualTo(2);
        // The simulator reports Whisper's prompt length: 100 frames per second of the clip it got (the
        // synthetic 5 s tone would be 500 each, the skipped 1 s clip 100), plus OPT's one special token
        // for the empty text prompt.
        assertThat(json.get("total_input_tokens").asInt()).isEqualTo(25 + 1 + 50 + 1);
        assertThat(json.get("total_output_tokens").asInt()).isEqualTo(2 * 5);
        // vLLM's RTFx: the sent clips' 0.25 s + 0.5 s over the run's duration
        assertThat(json.get("rtfx").asDouble())
                .isCloseTo(0.75 / json.get("duration").asDouble(), within(1e-9));
    }
}
