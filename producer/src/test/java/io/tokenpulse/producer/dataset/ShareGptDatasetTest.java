package io.tokenpulse.producer.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tokenpulse.tokenizers.Tokenizer;
import io.tokenpulse.tokenizers.TokenizerLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The sharegpt dataset on small ShareGPT files written here and the real Qwen3 tokenizer. */
class ShareGptDatasetTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    // Conversations that pass every filter: prompt -> completion.
    static final Map<String, String> VALID = new LinkedHashMap<>();

    static {
        VALID.put(
                "Explain the theory of relativity in simple terms.",
                "Relativity says that the laws of physics are the same for everyone moving steadily.");
        VALID.put("Write a haiku about the sea at night.", "Dark waves fold and break, the moon pours silver on them.");
        VALID.put("What is the capital city of Australia?", "The capital city of Australia is Canberra, not Sydney.");
        VALID.put(
                "Give me three tips for learning to play the guitar.",
                "Practise daily, learn the basic chords first, and play songs you enjoy.");
        VALID.put("Translate 'good morning' into French and Spanish.", "In French: bonjour. In Spanish: buenos días.");
    }

    static Tokenizer qwen3;
    static Path file;

    @TempDir
    static Path dir;

    @BeforeAll
    static void write() throws IOException {
        qwen3 = new TokenizerLoader(Path.of("no-hub-cache")).load(RandomDatasetTest.QWEN3.toString());
        List<Object> entries = new ArrayList<>();
        VALID.forEach((prompt, completion) -> entries.add(entry(prompt, completion)));
        entries.add(entry("Hi", "Hello! How can I help you today with anything at all?")); // prompt under 4
        entries.add(entry("Tell me a joke about computers, please.", "No.")); // completion under 4
        entries.add(entry(" word".repeat(1100), "That is a lot of words, all of them the same.")); // prompt over 1024
        entries.add(entry(" word".repeat(1000), " reply".repeat(1100))); // total over 2048
        entries.add(Map.of("id", "one-turn", "conversations", List.of(turn("human", "Only a question?"))));
        entries.add(Map.of("id", "no-conversations"));
        file = dir.resolve("sharegpt.json");
        JSON.writeValue(file.toFile(), entries);
    }

    static Map<String, Object> entry(String prompt, String completion) {
        return Map.of(
                "conversations", List.of(turn("human", prompt), turn("gpt", completion), turn("human", "Thanks")));
    }

    static Map<String, String> turn(String from, String value) {
        return Map.of("from", from, "value", value);
    }

    static DatasetOptions options(
            Path path, PromptStyle style, Integer outputLen, boolean disableShuffle, boolean noOversample) {
        return new DatasetOptions(
                        "sharegpt", path, style, DatasetOptions.Random.DEFAULTS, DatasetOptions.Sonnet.DEFAULTS)
                .withShareGpt(new DatasetOptions.ShareGpt(outputLen))
                .withFileSampling(new DatasetOptions.FileSampling(disableShuffle, noOversample));
    }

    static ShareGptDataset load(DatasetOptions options) {
        return (ShareGptDataset) Datasets.create(options, qwen3);
    }

    static String text(SampledRequest request) {
        return ((Prompt.Text) request.prompt()).text();
    }

    @Test
    void everyFilterDropsItsEntryAndTheRestAreSentWithTokenizerLengths() {
        Drawn drawn =
                load(options(file, PromptStyle.COMPLETION, null, false, true)).draw(100, 0);

        assertThat(drawn.requests())
                .extracting(ShareGptDatasetTest::text)
                .containsExactlyInAnyOrderElementsOf(VALID.keySet());
        assertThat(drawn.requests()).allSatisfy(request -> {
            assertThat(request.promptLen()).isEqualTo(qwen3.countTokens(text(request)));
            assertThat(request.expectedOutputLen()).isEqualTo(qwen3.countTokens(VALID.get(text(request))));
        });
        assertThat(drawn.requests()).extracting(SampledRequest::index).containsExactly(0, 1, 2, 3, 4);
        assertThat(drawn.summary())
                .isEqualTo("sharegpt: " + file + ": 11 entries, 2 with fewer than 2 turns dropped;"
                        + " of 9 tokenized, dropped: 1 prompt under 4 tokens, 1 completion under 4 tokens,"
                        + " 1 prompt over 1024 tokens, 1 prompt + completion over 2048 tokens; sampled 5;"
                        + " only 5 of --num-prompts 100 (--no-oversample): the run sends 5");
    }

    @Test
    void sharegptOutputLenReplacesTheCompletionAndSkipsOnlyItsMinimum() {
        Drawn drawn =
                load(options(file, PromptStyle.COMPLETION, 3, false, true)).draw(100, 0);

        // The "No." completion counts no more; the 1000-word prompt now fits with 3 output tokens.
        assertThat(drawn.requests())
                .hasSize(7)
                .allSatisfy(request -> assertThat(request.expectedOutputLen()).isEqualTo(3));
        assertThat(drawn.requests())
                .extracting(ShareGptDatasetTest::text)
                .contains("Tell me a joke about computers, please.", " word".repeat(1000))
                .doesNotContain("Hi", " word".repeat(1100));
    }

    @Test
    void onlyTheFirstValidEntriesOfTheSeededOrderAreTokenized() {
        Drawn drawn =
                load(options(file, PromptStyle.COMPLETION, null, true, false)).draw(2, 0);

        // File order: the first two entries are valid, so nothing else is looked at.
        assertThat(drawn.requests())
                .extracting(ShareGptDatasetTest::text)
                .containsExactlyElementsOf(new ArrayList<>(VALID.keySet()).subList(0, 2));
        assertThat(drawn.summary()).endsWith("of 2 tokenized, dropped: none; sampled 2");
    }

    @Test
    void theSeedFixesTheOrderAndAnotherSeedChangesIt() {
        ShareGptDataset dataset = load(options(file, PromptStyle.COMPLETION, null, false, false));

        List<String> seed1 =
                dataset.sample(5, 1).stream().map(ShareGptDatasetTest::text).toList();
        assertThat(dataset.sample(5, 1))
                .isEqualTo(load(options(file, PromptStyle.COMPLETION, null, false, false))
                        .sample(5, 1));
        List<List<String>> others = new ArrayList<>();
        for (long seed = 2; seed < 6; seed++) {
            others.add(dataset.sample(5, seed).stream()
                    .map(ShareGptDatasetTest::text)
                    .toList());
        }
        assertThat(others)
                .as("4 other seeds, 5! orders")
                .anySatisfy(order -> assertThat(order).isNotEqualTo(seed1));
        assertThat(seed1).containsExactlyInAnyOrderElementsOf(VALID.keySet());
    }

    @Test
    void fewerValidEntriesThanAskedAreOversampledWithRepeatsAndSaySo() {
        ShareGptDataset dataset = load(options(file, PromptStyle.COMPLETION, null, false, false));

        Drawn drawn = dataset.draw(12, 7);

        assertThat(drawn.requests()).hasSize(12);
        assertThat(drawn.requests())
                .extracting(SampledRequest::index)
                .containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);
        assertThat(drawn.requests().subList(0, 5))
                .extracting(ShareGptDatasetTest::text)
                .containsExactlyInAnyOrderElementsOf(VALID.keySet());
        assertThat(drawn.requests().subList(5, 12)).allSatisfy(repeat -> {
            SampledRequest original = drawn.requests().stream()
                    .limit(5)
                    .filter(r -> text(r).equals(text(repeat)))
                    .findFirst()
                    .orElseThrow();
            assertThat(repeat.promptLen()).isEqualTo(original.promptLen());
            assertThat(repeat.expectedOutputLen()).isEqualTo(original.expectedOutputLen());
        });
        assertThat(drawn.summary())
                .endsWith("sampled 5; only 5 of --num-prompts 12, oversampled requests to reach 12"
                        + " total samples (repeats drawn with --seed; --no-oversample sends only the 5)");
        assertThat(dataset.draw(12, 7)).isEqualTo(drawn);
    }

    @Test
    void chatBackendsGetTheFirstTurnAsOneUserMessage() {
        SampledRequest request = load(options(file, PromptStyle.CHAT, null, true, false))
                .sample(1, 0)
                .get(0);

        Prompt.Chat chat = (Prompt.Chat) request.prompt();
        assertThat(chat.messages()).hasSize(1);
        assertThat(chat.messages().get(0).role()).isEqualTo("user");
        assertThat(chat.messages().get(0).content()).isEqualTo("Explain the theory of relativity in simple terms.");
        assertThat(chat.imageUrls()).isEmpty();
    }

    @Test
    void sharegpt4vImagesGoToChatAsDataUrlsOfTheLocalFile() throws IOException {
        Path images = Files.createDirectories(dir.resolve("images-ok/coco"));
        byte[] png = {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10, 0, 0, 0, 13};
        Files.write(images.resolve("cat.png"), png);
        Path v4 = dir.resolve("images-ok/sharegpt4v.json");
        Map<String, Object> withImage =
                new LinkedHashMap<>(entry("What animal is in this picture?", "It is a small grey cat."));
        withImage.put("image", "coco/cat.png");
        Map<String, Object> remote =
                new LinkedHashMap<>(entry("Describe the picture behind this link.", "A city skyline at dusk."));
        remote.put("image", "https://example.com/skyline.jpg");
        JSON.writeValue(v4.toFile(), List.of(withImage, remote));

        List<SampledRequest> requests =
                load(options(v4, PromptStyle.CHAT, null, true, false)).sample(2, 0);

        assertThat(((Prompt.Chat) requests.get(0).prompt()).imageUrls())
                .containsExactly("data:image/png;base64," + Base64.getEncoder().encodeToString(png));
        assertThat(((Prompt.Chat) requests.get(1).prompt()).imageUrls())
                .containsExactly("https://example.com/skyline.jpg");
        assertThat(requests.get(0).promptLen()).isEqualTo(qwen3.countTokens("What animal is in this picture?"));
    }

    @Test
    void imagesAreRefusedForCompletionBackendsAndMissingImagesBeforeTheRun() throws IOException {
        Path v4 = dir.resolve("sharegpt4v-missing.json");
        Map<String, Object> withImage =
                new LinkedHashMap<>(entry("What animal is in this picture?", "It is a small grey cat."));
        withImage.put("image", "coco/missing.jpg");
        JSON.writeValue(
                v4.toFile(),
                List.of(entry("A question without any picture?", "An answer without any picture."), withImage));

        assertThatThrownBy(() -> load(options(v4, PromptStyle.COMPLETION, null, false, false)))
                .hasMessage(
                        "--dataset-path " + v4 + ": entry [1] has an image, and only --backend openai-chat (with"
                                + " --endpoint /v1/chat/completions) sends images; use that backend or a file without \"image\" entries");
        assertThatThrownBy(() -> load(options(v4, PromptStyle.CHAT, null, false, false)))
                .hasMessage("--dataset-path " + v4 + ": entry [1]: image 'coco/missing.jpg' is not a readable file at "
                        + dir.resolve("coco/missing.jpg").toAbsolutePath()
                        + " (relative paths start at the dataset file's folder)");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '"',
            value = {
                "not JSON            | [{\"conversations\": [                         | is not a ShareGPT file: not valid JSON (line 1, column 21: Unexpected end-of-input",
                "object, not a list  | {\"conversations\": []}                        | is not a ShareGPT file: expected a JSON array of {\"conversations\": [{\"from\": \"human\", \"value\": \"...\"}, ...]} entries, found an object",
                "empty file          | \"\"                                           | is not a ShareGPT file: expected a JSON array of {\"conversations\": [{\"from\": \"human\", \"value\": \"...\"}, ...]} entries, found an empty file",
                "entry not an object | [\"hello\"]                                    | is not a ShareGPT file: entry [0] (line 1) is a string;",
                "value not a string  | [{\"conversations\": [{\"value\": 1}, {\"value\": \"b\"}]}] | is not a ShareGPT file: entry [0] (line 1): conversations[0] needs a string \"value\";",
                "no two-turn entry   | [{\"conversations\": [{\"value\": \"a\"}]}]   | is not a ShareGPT file: none of its 1 entries has two or more conversation turns;",
            })
    void badFilesGetOneLineNamingTheFileAndWhatWasExpected(String why, String content, String message)
            throws IOException {
        Path bad = Files.writeString(dir.resolve(why.replace(' ', '-') + ".json"), content);

        assertThatThrownBy(() -> load(options(bad, PromptStyle.COMPLETION, null, false, false)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--dataset-path " + bad + " " + message)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void missingFileNamesThePath() {
        Path missing = dir.resolve("nope.json");

        assertThatThrownBy(() -> load(options(missing, PromptStyle.COMPLETION, null, false, false)))
                .hasMessageStartingWith("--dataset-path " + missing + " cannot be read (NoSuchFileException");
    }

    @Test
    void nothingLeftAfterFilteringIsAnErrorBeforeTheRunNotAnEmptyRun() throws IOException {
        Path tooShort = dir.resolve("too-short.json");
        JSON.writeValue(tooShort.toFile(), List.of(entry("Hi", "Hello there, how are you doing?"), entry("Yo", "No.")));
        assertThatThrownBy(() -> load(options(tooShort, PromptStyle.COMPLETION, null, false, false)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("sharegpt: " + tooShort + ": 2 entries, 0 with fewer than 2 turns dropped; of 2 tokenized,"
                        + " dropped: 2 prompt under 4 tokens; no conversation is left to send: give a file with prompts"
                        + " of 4 to 1024 tokens, or --sharegpt-output-len to skip the completion's check");
    }
}
