package io.tokenpulse.producer.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tokenpulse.tokenizers.ChatMessage;
import io.tokenpulse.tokenizers.Tokenizer;
import io.tokenpulse.tokenizers.TokenizerLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The sonnet dataset on the real sonnet.txt and Qwen3 tokenizer from {@code testdata/}. */
class SonnetDatasetTest {

    static final Path SONNET = Path.of("..", "testdata", "sonnet.txt");

    static Tokenizer qwen3;
    static List<String> sonnetLines;
    // sonnet.txt's last line has no line break, so (in vLLM too) drawing it glues it to the next
    // line; the line-structure test reads a copy that ends in one.
    static Path sonnetWithFinalNewline;

    @BeforeAll
    static void load(@TempDir Path dir) throws IOException {
        qwen3 = new TokenizerLoader(Path.of("no-hub-cache")).load(RandomDatasetTest.QWEN3.toString());
        sonnetLines = Files.readAllLines(SONNET);
        sonnetWithFinalNewline = Files.writeString(dir.resolve("sonnet.txt"), String.join("\n", sonnetLines) + "\n");
    }

    private static Dataset sonnet(PromptStyle style, int inputLen, int outputLen, int prefixLen) {
        return sonnet(SONNET, style, inputLen, outputLen, prefixLen);
    }

    private static Dataset sonnet(Path file, PromptStyle style, int inputLen, int outputLen, int prefixLen) {
        return Datasets.create(
                new DatasetOptions(
                        "sonnet",
                        file,
                        style,
                        DatasetOptions.Random.DEFAULTS,
                        new DatasetOptions.Sonnet(inputLen, outputLen, prefixLen)),
                qwen3);
    }

    // Line counts worked out in Python with an independent BPE over the same files: the average
    // sonnet line is 10.75 tokens and the formatted base prompt 20, so e.g. for 550/200:
    // round((550-20)/10.75) = 49 lines in all, round((200-20)/10.75) = 17 of them the file's first.
    @ParameterizedTest(name = "input {0}, prefix {1}")
    @CsvSource({"550, 200, 17, 32", "1024, 512, 46, 47", "300, 0, 0, 26", "200, 150, 12, 5"})
    void promptIsBasePlusFirstLinesPlusDrawnLines(int inputLen, int prefixLen, int prefixLines, int drawnLines) {
        Drawn drawn = ((SonnetDataset) sonnet(sonnetWithFinalNewline, PromptStyle.CHAT, inputLen, 150, prefixLen))
                .draw(10, 0);
        List<SampledRequest> requests = drawn.requests();

        assertThat(drawn.summary())
                .matches("sonnet: " + java.util.regex.Pattern.quote(sonnetWithFinalNewline.toString()) + ": "
                        + sonnetLines.size() + " lines, none dropped; sampled 10 prompts of the first " + prefixLines
                        + " lines and " + drawnLines + " drawn with replacement; \\d+ drawings over --sonnet-input-len "
                        + inputLen + " tokens thrown away");

        assertThat(requests).allSatisfy(request -> {
            String raw = ((Prompt.Chat) request.prompt()).messages().get(0).content();
            assertThat(raw).startsWith(SonnetDataset.BASE_PROMPT);
            List<String> lines =
                    raw.substring(SonnetDataset.BASE_PROMPT.length()).lines().toList();
            assertThat(lines).hasSize(prefixLines + drawnLines);
            assertThat(lines.subList(0, prefixLines)).isEqualTo(sonnetLines.subList(0, prefixLines));
            assertThat(sonnetLines).containsAll(lines);
            // vLLM counts the formatted prompt, also for chat backends.
            String formatted = qwen3.applyChatTemplate(List.of(ChatMessage.user(raw)), true);
            assertThat(request.promptLen())
                    .isEqualTo(qwen3.countTokens(formatted))
                    .isLessThanOrEqualTo(inputLen);
            assertThat(request.expectedOutputLen()).isEqualTo(150);
        });
    }

    @Test
    void completionBackendsGetTheTemplatedPrompt() {
        List<SampledRequest> requests =
                sonnet(PromptStyle.COMPLETION, 550, 150, 200).sample(5, 9);

        assertThat(requests).allSatisfy(request -> {
            String text = ((Prompt.Text) request.prompt()).text();
            assertThat(text)
                    .startsWith("<|im_start|>user\n" + SonnetDataset.BASE_PROMPT + sonnetLines.get(0) + "\n")
                    .endsWith("<|im_end|>\n<|im_start|>assistant\n");
            assertThat(request.promptLen()).isEqualTo(qwen3.countTokens(text)).isLessThanOrEqualTo(550);
        });
        assertThat(requests).extracting(SampledRequest::index).containsExactly(0, 1, 2, 3, 4);
    }

    @Test
    void sameSeedGivesSameRequestsAndAnotherSeedDiffers() {
        Dataset dataset = sonnet(PromptStyle.COMPLETION, 550, 150, 200);

        assertThat(dataset.sample(20, 4)).isEqualTo(dataset.sample(20, 4));
        assertThat(dataset.sample(20, 5)).isNotEqualTo(dataset.sample(20, 4));
    }

    @Test
    void missingPathNamesTheFlag() {
        assertThatThrownBy(() -> Datasets.create(
                        new DatasetOptions(
                                "sonnet",
                                null,
                                PromptStyle.COMPLETION,
                                DatasetOptions.Random.DEFAULTS,
                                DatasetOptions.Sonnet.DEFAULTS),
                        qwen3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the sonnet dataset needs --dataset-path /path/to/sonnet.txt");
    }

    @Test
    void unreadablePathNamesTheFlagOnOneLine(@TempDir Path dir) {
        Path missing = dir.resolve("nope.txt");

        assertThatThrownBy(() -> Datasets.create(
                        new DatasetOptions(
                                "sonnet",
                                missing,
                                PromptStyle.COMPLETION,
                                DatasetOptions.Random.DEFAULTS,
                                DatasetOptions.Sonnet.DEFAULTS),
                        qwen3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--dataset-path " + missing + " cannot be read")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        assertThatThrownBy(() -> Datasets.create(
                        new DatasetOptions(
                                "sonnet",
                                dir,
                                PromptStyle.COMPLETION,
                                DatasetOptions.Random.DEFAULTS,
                                DatasetOptions.Sonnet.DEFAULTS),
                        qwen3))
                .hasMessageStartingWith("--dataset-path " + dir + " cannot be read");
    }

    @Test
    void binaryFileIsRejectedAsNotText(@TempDir Path dir) throws IOException {
        // 0xC3 0x28: a UTF-8 lead byte followed by a byte that cannot continue it
        Path binary = Files.write(dir.resolve("model.bin"), new byte[] {0x00, (byte) 0xC3, 0x28, (byte) 0xFF, '\n'});

        assertThatThrownBy(() -> Datasets.create(
                        new DatasetOptions(
                                "sonnet",
                                binary,
                                PromptStyle.COMPLETION,
                                DatasetOptions.Random.DEFAULTS,
                                DatasetOptions.Sonnet.DEFAULTS),
                        qwen3))
                .hasMessage("--dataset-path " + binary + " is not UTF-8 text; pass the sonnet text file");
    }

    @Test
    void emptyFileIsRejected(@TempDir Path dir) throws IOException {
        Path empty = Files.writeString(dir.resolve("empty.txt"), "");

        assertThatThrownBy(() -> Datasets.create(
                        new DatasetOptions(
                                "sonnet",
                                empty,
                                PromptStyle.COMPLETION,
                                DatasetOptions.Random.DEFAULTS,
                                DatasetOptions.Sonnet.DEFAULTS),
                        qwen3))
                .hasMessage("--dataset-path " + empty + " has no lines");
    }

    @Test
    void tokenizerWithoutChatTemplateIsRejected() {
        Tokenizer gpt2 = new TokenizerLoader(Path.of("no-hub-cache")).load("gpt2");

        assertThatThrownBy(() -> Datasets.create(
                        new DatasetOptions(
                                "sonnet",
                                SONNET,
                                PromptStyle.COMPLETION,
                                DatasetOptions.Random.DEFAULTS,
                                DatasetOptions.Sonnet.DEFAULTS),
                        gpt2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("the sonnet dataset needs a tokenizer with a chat template; 'gpt2' has none");
    }

    @Test
    void inputShorterThanTheBasePromptIsRejected() {
        assertThatThrownBy(() -> sonnet(PromptStyle.COMPLETION, 20, 150, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--sonnet-input-len 20 must be greater than the base prompt length (20 tokens)");
    }

    @Test
    void prefixLongerThanTheInputFailsInsteadOfLoopingForever() {
        // 400-token prefix: round((400-20)/10.75) = 35 first lines, far over 100 tokens.
        assertThatThrownBy(() -> sonnet(PromptStyle.COMPLETION, 100, 150, 400))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--sonnet-prefix-len 400 gives prompts of ")
                .hasMessageContaining("more than --sonnet-input-len 100");
    }
}
