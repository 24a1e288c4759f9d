package io.tokenpulse.producer.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tokenpulse.tokenizers.ChatMessage;
import io.tokenpulse.tokenizers.Tokenizer;
import io.tokenpulse.tokenizers.TokenizerLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The custom dataset on a small JSONL file written here and the real Qwen3 tokenizer. */
class CustomDatasetTest {

    // prompt -> output_tokens, in file order.
    static final Map<String, Integer> LINES = Map.of(
            "What is the capital of India?", 10,
            "What is the capital of Iran?", 1520,
            "What is the capital of China?", 819,
            "Name three rivers in Europe.", 64);
    static final List<String> FILE_ORDER = List.of(
            "What is the capital of India?",
            "What is the capital of Iran?",
            "What is the capital of China?",
            "Name three rivers in Europe.");

    static Tokenizer qwen3;
    static Path file;

    @TempDir
    static Path dir;

    @BeforeAll
    static void write() throws IOException {
        qwen3 = new TokenizerLoader(Path.of("no-hub-cache")).load(RandomDatasetTest.QWEN3.toString());
        List<String> lines = new ArrayList<>();
        for (String prompt : FILE_ORDER) {
            lines.add("{\"prompt\": \"" + prompt + "\", \"output_tokens\": " + LINES.get(prompt) + "}");
        }
        lines.add(2, ""); // blank lines are skipped
        file = Files.write(dir.resolve("prompts.jsonl"), lines);
    }

    static DatasetOptions options(
            Path path, PromptStyle style, int outputLen, boolean skipTemplate, boolean disableShuffle) {
        return new DatasetOptions("custom", path, style, DatasetOptions.Random.DEFAULTS, DatasetOptions.Sonnet.DEFAULTS)
                .withCustom(new DatasetOptions.Custom(outputLen, skipTemplate))
                .withFileSampling(new DatasetOptions.FileSampling(disableShuffle, false));
    }

    static CustomDataset load(DatasetOptions options) {
        return (CustomDataset) Datasets.create(options, qwen3);
    }

    static String templated(String prompt) {
        return qwen3.applyChatTemplate(List.of(ChatMessage.user(prompt)), true);
    }

    static String text(SampledRequest request) {
        return ((Prompt.Text) request.prompt()).text();
    }

    @Test
    void promptsGoThroughTheChatTemplateAndAskForTheCustomOutputLen() {
        List<SampledRequest> requests =
                load(options(file, PromptStyle.COMPLETION, 256, false, true)).sample(4, 0);

        assertThat(requests)
                .extracting(CustomDatasetTest::text)
                .containsExactlyElementsOf(
                        FILE_ORDER.stream().map(CustomDatasetTest::templated).toList());
        assertThat(requests).allSatisfy(request -> {
            assertThat(text(request)).startsWith("<|im_start|>user\n").endsWith("<|im_start|>assistant\n");
            assertThat(request.promptLen()).isEqualTo(qwen3.countTokens(text(request)));
            assertThat(request.expectedOutputLen()).isEqualTo(256);
        });
    }

    @Test
    void customOutputLenMinusOneTakesEachLinesOutputTokens() {
        List<SampledRequest> requests =
                load(options(file, PromptStyle.COMPLETION, -1, true, false)).sample(4, 5);

        assertThat(requests)
                .allSatisfy(request -> assertThat(request.expectedOutputLen()).isEqualTo(LINES.get(text(request))));
        assertThat(requests).extracting(CustomDatasetTest::text).containsExactlyInAnyOrderElementsOf(FILE_ORDER);
    }

    @Test
    void skipChatTemplateSendsAndCountsThePromptAsWritten() {
        List<SampledRequest> requests =
                load(options(file, PromptStyle.COMPLETION, 20, true, true)).sample(4, 0);

        assertThat(requests).extracting(CustomDatasetTest::text).containsExactlyElementsOf(FILE_ORDER);
        assertThat(requests)
                .allSatisfy(request -> assertThat(request.promptLen()).isEqualTo(qwen3.countTokens(text(request))));
    }

    @Test
    void chatBackendsGetThePromptAsWrittenButItsTemplatedLength() {
        SampledRequest request = load(options(file, PromptStyle.CHAT, 256, false, true))
                .sample(1, 0)
                .get(0);

        Prompt.Chat chat = (Prompt.Chat) request.prompt();
        assertThat(chat.messages()).containsExactly(ChatMessage.user(FILE_ORDER.get(0)));
        assertThat(request.promptLen()).isEqualTo(qwen3.countTokens(templated(FILE_ORDER.get(0))));
    }

    @Test
    void theSeedFixesTheOrderAndShortFilesAreOversampled() {
        CustomDataset dataset = load(options(file, PromptStyle.COMPLETION, 256, true, false));

        Drawn drawn = dataset.draw(9, 3);

        assertThat(drawn)
                .isEqualTo(load(options(file, PromptStyle.COMPLETION, 256, true, false))
                        .draw(9, 3));
        assertThat(drawn.requests())
                .hasSize(9)
                .extracting(SampledRequest::index)
                .containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8);
        assertThat(drawn.requests().subList(0, 4))
                .extracting(CustomDatasetTest::text)
                .containsExactlyInAnyOrderElementsOf(FILE_ORDER);
        assertThat(drawn.requests().subList(4, 9))
                .extracting(CustomDatasetTest::text)
                .isSubsetOf(FILE_ORDER);
        assertThat(drawn.summary())
                .isEqualTo("custom: " + file + ": 4 prompts, none dropped; sampled 4; only 4 of"
                        + " --num-prompts 9, oversampled requests to reach 9 total samples (repeats drawn with --seed;"
                        + " --no-oversample sends only the 4)");
        List<List<String>> orders = List.of(4L, 5L, 6L, 7L).stream()
                .map(seed -> dataset.sample(4, seed).stream()
                        .map(CustomDatasetTest::text)
                        .toList())
                .toList();
        List<String> seed3 = drawn.requests().subList(0, 4).stream()
                .map(CustomDatasetTest::text)
                .toList();
        assertThat(orders).anySatisfy(order -> assertThat(order).isNotEqualTo(seed3));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '"',
            value = {
                "not JSON           | 256 | {\"prompt\": \"a\"}\\n{prompt: b}\\n   | line 2 is not JSON (Unexpected character ('p' (code 112)): was expecting double-quote to start field name); expected one JSON object per line like {\"prompt\": \"...\", \"output_tokens\": 10}",
                "no prompt          | 256 | {\"text\": \"a\"}\\n                  | line 1 has no string \"prompt\"; expected one JSON object per line like {\"prompt\": \"...\", \"output_tokens\": 10}",
                "no output_tokens   | -1  | {\"prompt\": \"a\", \"output_tokens\": 3}\\n{\"prompt\": \"b\"}\\n | line 2 has no \"output_tokens\", which --custom-output-len -1 takes the output length from; add it to every line or give --custom-output-len N",
                "bad output_tokens  | -1  | {\"prompt\": \"a\", \"output_tokens\": \"many\"}\\n | line 1: \"output_tokens\" is \"many\"; expected a whole number >= 1",
                "empty              | 256 | \\n\\n                               | it has no lines; expected one JSON object per line like {\"prompt\": \"...\", \"output_tokens\": 10}",
            })
    void badFilesGetOneLineNamingTheFileTheLineAndWhatWasExpected(
            String why, int outputLen, String content, String message) throws IOException {
        Path bad = Files.writeString(dir.resolve(why.replace(' ', '-') + ".jsonl"), content.replace("\\n", "\n"));

        assertThatThrownBy(() -> load(options(bad, PromptStyle.COMPLETION, outputLen, true, false)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--dataset-path " + bad + " is not a custom dataset JSONL file: " + message);
    }

    @Test
    void outputTokensWrittenAsWholeFloatsOrStringsAreTakenAsVllmsIntDoes() throws IOException {
        Path floats = Files.writeString(
                dir.resolve("floats.jsonl"),
                "{\"prompt\": \"one two three four\", \"output_tokens\": 12.0}\n{\"prompt\": \"five six seven\", \"output_tokens\": \"7\"}\n");

        assertThat(load(options(floats, PromptStyle.COMPLETION, -1, true, true)).sample(2, 0))
                .extracting(SampledRequest::expectedOutputLen)
                .containsExactly(12, 7);
    }

    @Test
    void aTokenizerWithoutChatTemplateNeedsSkipChatTemplate() {
        Tokenizer gpt2 = new TokenizerLoader(Path.of("no-hub-cache")).load("gpt2");

        assertThatThrownBy(() -> Datasets.create(options(file, PromptStyle.COMPLETION, 256, false, false), gpt2))
                .hasMessage(
                        "the custom dataset applies the chat template to every prompt and 'gpt2' has none: pass"
                                + " --tokenizer with a tokenizer_config.json that has chat_template, or --custom-skip-chat-template");
        assertThat(Datasets.create(options(file, PromptStyle.COMPLETION, 256, true, false), gpt2)
                        .sample(1, 0))
                .hasSize(1);
    }

    @Test
    void badCustomOutputLenNamesTheFlag() {
        assertThatThrownBy(() -> new DatasetOptions.Custom(0, false).checked())
                .hasMessage("--custom-output-len must be >= 1, or -1 to take each line's output_tokens, got 0");
    }

    @Test
    void missingFileNamesThePath() {
        Path missing = dir.resolve("nope.jsonl");

        assertThatThrownBy(() -> load(options(missing, PromptStyle.COMPLETION, 256, true, false)))
                .hasMessageStartingWith("--dataset-path " + missing + " cannot be read (NoSuchFileException");
    }
}
