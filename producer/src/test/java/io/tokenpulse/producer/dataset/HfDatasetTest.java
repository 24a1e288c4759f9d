package io.tokenpulse.producer.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tokenpulse.tokenizers.ChatMessage;
import io.tokenpulse.tokenizers.Tokenizer;
import io.tokenpulse.tokenizers.TokenizerLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;
import org.duckdb.DuckDBDriver;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hf dataset from local files: Parquet written here with DuckDB in the hub cache's layout,
 * JSON and JSONL, each of vLLM's layouts, on the real Qwen3 tokenizer (it has a chat template).
 */
class HfDatasetTest {

    static Tokenizer qwen3;

    @TempDir
    Path dir;

    @BeforeAll
    static void load() {
        qwen3 = new TokenizerLoader(Path.of("no-hub-cache")).load(RandomDatasetTest.QWEN3.toString());
    }

    /** Writes {@code select} (a DuckDB query) to a Parquet file. */
    static Path parquet(Path file, String select) throws IOException, SQLException {
        Files.createDirectories(file.getParent());
        try (Connection connection = new DuckDBDriver().connect("jdbc:duckdb:", new Properties());
                Statement statement = connection.createStatement()) {
            statement.execute("COPY (" + select + ") TO '" + file + "' (FORMAT parquet)");
        }
        return file;
    }

    private HfSource.Caches caches() {
        return new HfSource.Caches(dir.resolve("hub"), dir.resolve("datasets"));
    }

    private HfDataset hf(String path, PromptStyle style, DatasetOptions.Hf flags, boolean skipTemplate) {
        DatasetOptions options = new DatasetOptions(
                        "hf", Path.of(path), style, DatasetOptions.Random.DEFAULTS, DatasetOptions.Sonnet.DEFAULTS)
                .withCustom(new DatasetOptions.Custom(256, skipTemplate))
                .withFileSampling(new DatasetOptions.FileSampling(true, false))
                .withHf(flags);
        return HfDataset.load(options, qwen3, caches());
    }

    private static String text(SampledRequest request) {
        return ((Prompt.Text) request.prompt()).text();
    }

    private static String templated(String prompt) {
        return qwen3.applyChatTemplate(List.of(ChatMessage.user(prompt)), true);
    }

    @Test
    void gsm8kFromTheHubCacheReadsItsDefaultSubsetAndSplitThroughTheChatTemplate() throws Exception {
        Path snapshot = dir.resolve("hub/datasets--openai--gsm8k/snapshots/e53f048856ff4f594e959d75785d2c2d37b678ee");
        parquet(
                snapshot.resolve("main/test-00000-of-00001.parquet"),
                "SELECT * FROM (VALUES ('What is 2 + 3?', '5'), ('What is 7 * 6?', '42')) t(question, answer)");
        parquet(snapshot.resolve("main/train-00000-of-00001.parquet"), "SELECT 'A train question?' AS question");
        parquet(snapshot.resolve("socratic/test-00000-of-00001.parquet"), "SELECT 'A socratic one?' AS question");

        Drawn drawn = hf("openai/gsm8k", PromptStyle.COMPLETION, DatasetOptions.Hf.DEFAULTS, false)
                .draw(2, 0);

        assertThat(drawn.requests())
                .extracting(HfDatasetTest::text)
                .containsExactly(templated("What is 2 + 3?"), templated("What is 7 * 6?"));
        assertThat(drawn.requests()).allSatisfy(r -> {
            assertThat(r.expectedOutputLen()).isEqualTo(256);
            assertThat(r.promptLen()).isEqualTo(qwen3.countTokens(text(r)));
        });
        assertThat(drawn.summary())
                .isEqualTo("hf: openai/gsm8k (" + snapshot + "): GSM8K layout, split test, subset main, 1 file: 2"
                        + " rows, 0 with fewer than 2 turns dropped; no length filter (output length 256); sampled 2");
        assertThat(hf("openai/gsm8k", PromptStyle.COMPLETION, new DatasetOptions.Hf("socratic", "test", 9), true)
                        .draw(1, 0)
                        .requests())
                .extracting(HfDatasetTest::text, SampledRequest::expectedOutputLen)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("A socratic one?", 9));
    }

    @Test
    void conversationsTakeTheSecondTurnsLengthAndVllmsFilterWhenNoOutputLenIsGiven() throws Exception {
        Path file = parquet(
                dir.resolve("sharegpt/train.parquet"),
                "SELECT * FROM (VALUES"
                        + " ([{'from': 'human', 'value': 'Explain the theory of relativity simply.'},"
                        + "   {'from': 'gpt', 'value': 'Physics is the same for everyone moving steadily.'}]),"
                        + " ([{'from': 'human', 'value': 'Only one turn.'}]),"
                        + " ([{'from': 'human', 'value': 'Hi'}, {'from': 'gpt', 'value': 'Hello, how can I help?'}])"
                        + ") t(conversations)");

        Drawn drawn = hf(dir.resolve("sharegpt").toString(), PromptStyle.COMPLETION, DatasetOptions.Hf.DEFAULTS, false)
                .draw(5, 1);

        assertThat(drawn.requests()).hasSize(5).allSatisfy(r -> {
            assertThat(text(r)).isEqualTo("Explain the theory of relativity simply.");
            assertThat(r.expectedOutputLen())
                    .isEqualTo(qwen3.countTokens("Physics is the same for everyone moving steadily."));
        });
        assertThat(drawn.summary())
                .startsWith("hf: " + dir.resolve("sharegpt") + ": conversations layout, split train, 1 file: 3 rows,"
                        + " 1 with fewer than 2 turns dropped; of 2 tokenized, dropped: 1 prompt under 4 tokens;"
                        + " sampled 1; only 1 of --num-prompts 5, oversampled");
        assertThat(file).exists();
    }

    @Test
    void instructCoderAndHumanEvalLayoutsFromJsonAndJsonlFiles() throws IOException {
        Path coder = Files.writeString(dir.resolve("coder.json"), """
                [{"instruction": "Add type hints.", "input": "def f(x): return x", "output": "..."}]
                """);
        Path humaneval = Files.writeString(dir.resolve("humaneval.jsonl"), """
                {"task_id": "HumanEval/0", "prompt": "def add(a, b):\\n", "canonical_solution": "    return a + b"}
                """);

        SampledRequest instruction = hf(
                        coder.toString(), PromptStyle.COMPLETION, new DatasetOptions.Hf(null, null, 17), true)
                .draw(1, 0)
                .requests()
                .get(0);
        SampledRequest chat = hf(humaneval.toString(), PromptStyle.CHAT, DatasetOptions.Hf.DEFAULTS, false)
                .draw(1, 0)
                .requests()
                .get(0);

        assertThat(text(instruction))
                .isEqualTo(
                        "def f(x): return x\n\nAdd type hints. Just output the code, do not include any explanation.");
        assertThat(instruction.expectedOutputLen()).isEqualTo(17);
        // openai-chat gets the prompt as written; its length is counted on the templated text.
        assertThat(((Prompt.Chat) chat.prompt()).messages()).containsExactly(ChatMessage.user("def add(a, b):\n"));
        assertThat(chat.promptLen()).isEqualTo(qwen3.countTokens(templated("def add(a, b):\n")));
        assertThat(chat.expectedOutputLen()).isEqualTo(256);
    }

    @Test
    void blazeditRowsBecomeItsPromptThroughTheTemplateAndEditsOutsideTheDistancesAreSkipped() throws Exception {
        // vdaita/edit_5k_char in the hub cache: the id picks the layout, its rows their own
        Path snapshot = dir.resolve("hub/datasets--vdaita--edit_5k_char/snapshots/0123456789abcdef");
        parquet(
                snapshot.resolve("data/train-00000-of-00001.parquet"),
                "SELECT * FROM (VALUES ('def f():\n    return 1', 'Return 2 instead.', 0.1),"
                        + " ('x = 1', 'Rename x to y.', 0.5), ('print(1)', 'Print 2.', 0.9))"
                        + " AS t(code, change_request, norm_distance)");

        Drawn drawn = hf(
                        "vdaita/edit_5k_char",
                        PromptStyle.COMPLETION,
                        new DatasetOptions.Hf(null, null, null, 0.2, 0.8),
                        false)
                .draw(1, 0);

        String prompt = """
                Given a code file, please apply the change requests and generate the new file.

                Original file:
                ```python
                x = 1
                ```

                Change request:
                Rename x to y.

                Please generate the new code file in the "New file" section below.""";
        SampledRequest request = drawn.requests().get(0);
        assertThat(text(request)).isEqualTo(templated(prompt));
        assertThat(request.expectedOutputLen())
                .as("vLLM's default for Blazedit")
                .isEqualTo(4000);
        assertThat(drawn.summary())
                .startsWith("hf: vdaita/edit_5k_char")
                .contains(": Blazedit layout, split train, 1 file: 3 rows, 2 outside --blazedit-min/max-distance"
                        + " dropped; no length filter (output length 4000); sampled 1");
        assertThatThrownBy(() -> hf(
                        "vdaita/edit_5k_char",
                        PromptStyle.COMPLETION,
                        new DatasetOptions.Hf(null, null, null, 0.6, 0.2),
                        false))
                .hasMessage("--blazedit-max-distance must be >= --blazedit-min-distance (0.6), got 0.2");
        assertThatThrownBy(() -> hf(
                        "vdaita/edit_5k_char",
                        PromptStyle.COMPLETION,
                        new DatasetOptions.Hf(null, null, null, 0.95, 1.0),
                        false))
                .hasMessageEndingWith("none of its 3 rows is usable (each is skipped when its norm_distance is"
                        + " outside --blazedit-min-distance 0.95 to --blazedit-max-distance 1.0)");
    }

    @Test
    void mlperfRowsSendTheSystemPromptAndQuestionAndAskForTheReferenceAnswersLength() throws Exception {
        String answer = "The capital of France is Paris, a city on the Seine.";
        Path file = Files.write(
                dir.resolve("mlperf.jsonl"),
                List.of(
                        "{\"system_prompt\": \"You are a helpful geography tutor.\", \"question\": \"What is the"
                                + " capital of France?\", \"output\": \"" + answer + "\"}",
                        // an answer under 4 tokens: vLLM's filter drops the row
                        "{\"system_prompt\": \"Be brief.\", \"question\": \"Two plus two?\", \"output\": \"4\"}"));
        List<ChatMessage> messages = List.of(
                ChatMessage.system("You are a helpful geography tutor."),
                ChatMessage.user("What is the capital of France?"));

        Drawn completions = hf(file.toString(), PromptStyle.COMPLETION, DatasetOptions.Hf.DEFAULTS, false)
                .draw(2, 0);
        SampledRequest chat = hf(file.toString(), PromptStyle.CHAT, DatasetOptions.Hf.DEFAULTS, false)
                .draw(1, 0)
                .requests()
                .get(0);

        String templated = qwen3.applyChatTemplate(messages, true);
        SampledRequest request = completions.requests().get(0);
        assertThat(text(request)).isEqualTo(templated);
        assertThat(request.promptLen()).isEqualTo(qwen3.countTokens(templated) + qwen3.numSpecialTokensToAdd());
        assertThat(request.expectedOutputLen())
                .as("the answer without special tokens")
                .isEqualTo(qwen3.countTokens(answer));
        assertThat(completions.summary())
                .contains(": MLPerf layout, 1 file: 2 rows, 0 with fewer than 2 turns dropped; of 2 tokenized,"
                        + " dropped: 1 completion under 4 tokens; sampled 1");
        assertThat(((Prompt.Chat) chat.prompt()).messages()).isEqualTo(messages);
        // the filter stays with --hf-output-len, as in vLLM: 3 tokens is under its minimum for every row
        assertThatThrownBy(
                        () -> hf(file.toString(), PromptStyle.COMPLETION, new DatasetOptions.Hf(null, null, 3), false))
                .hasMessageEndingWith("dropped: 2 completion under 4 tokens; no row is left to send: give rows with"
                        + " prompts of 4 to 1024 tokens");
        assertThat(text(hf(file.toString(), PromptStyle.COMPLETION, DatasetOptions.Hf.DEFAULTS, true)
                        .draw(1, 0)
                        .requests()
                        .get(0)))
                .as("--skip-chat-template: the system prompt, a blank line, the question")
                .isEqualTo("You are a helpful geography tutor.\n\nWhat is the capital of France?");
    }

    @Test
    void mmstarSendsTheQuestionBeforeItsOptionsWithTheRowsImage() throws Exception {
        byte[] png = png();
        // Lin-Chen/MMStar in the hub cache: its one split is val
        parquet(
                dir.resolve("hub/datasets--Lin-Chen--MMStar/snapshots/abc123/mmstar/val-00000-of-00001.parquet"),
                "SELECT 0 AS index, 'Which animal is shown?\nOptions: A: cat, B: dog' AS question,"
                        + " {'bytes': from_hex('" + hex(png) + "'), 'path': 'a.png'} AS image, 'A' AS answer");

        Drawn drawn = hf("Lin-Chen/MMStar", PromptStyle.CHAT, DatasetOptions.Hf.DEFAULTS, false)
                .draw(1, 0);

        SampledRequest request = drawn.requests().get(0);
        Prompt.Chat chat = (Prompt.Chat) request.prompt();
        assertThat(chat.messages()).containsExactly(ChatMessage.user("Which animal is shown?"));
        assertThat(chat.imageUrls())
                .containsExactly(
                        "data:image/png;base64," + java.util.Base64.getEncoder().encodeToString(png));
        assertThat(request.expectedOutputLen()).isEqualTo(128);
        assertThat(request.promptLen()).isEqualTo(qwen3.countTokens("Which animal is shown?"));
        assertThat(drawn.summary()).contains(": MMStar layout, split val, 1 file: 1 rows");
    }

    @Test
    void anIdNotInTheCacheNamesWhereItLooked() {
        assertThatThrownBy(() -> hf("openai/gsm8k", PromptStyle.COMPLETION, DatasetOptions.Hf.DEFAULTS, false))
                .hasMessage("dataset openai/gsm8k is not in the local Hugging Face cache (looked in "
                        + dir.resolve("hub/datasets--openai--gsm8k") + " and " + dir.resolve("datasets/openai___gsm8k")
                        + "); this machine has no network: copy its Parquet, JSON or JSONL files there, or give their"
                        + " folder as --dataset-path");
    }

    @Test
    void theDatasetsLibrarysArrowCacheIsNamedAsUnreadable() throws IOException {
        Files.createDirectories(dir.resolve("datasets/openai___gsm8k/main/0.0.0/abc"));
        Files.writeString(dir.resolve("datasets/openai___gsm8k/main/0.0.0/abc/gsm8k-test.arrow"), "x");

        Path arrow = dir.resolve("datasets/openai___gsm8k/main/0.0.0/abc/gsm8k-test.arrow");
        String convert = " (the datasets library's own cache), which TokenPulse does not read; convert it to Parquet"
                + " and give that: python3 -c \"import datasets; datasets.Dataset.from_file('" + arrow
                + "').to_parquet('" + dir.resolve("datasets/openai___gsm8k/main/0.0.0/abc/gsm8k-test.parquet")
                + "')\"";

        assertThatThrownBy(() -> hf("openai/gsm8k", PromptStyle.COMPLETION, DatasetOptions.Hf.DEFAULTS, false))
                .hasMessage("--dataset-path " + dir.resolve("datasets/openai___gsm8k") + " holds only .arrow files"
                        + convert);
        assertThatThrownBy(() -> hf(arrow.toString(), PromptStyle.COMPLETION, DatasetOptions.Hf.DEFAULTS, false))
                .hasMessage("--dataset-path " + arrow + " is an Arrow file" + convert);
    }

    @Test
    void rowsInAnotherLayoutNameTheFileAndTheRow() throws IOException {
        Path unknown = Files.writeString(dir.resolve("unknown.jsonl"), "{\"text\": \"a\", \"label\": 1}\n");
        Path badTurn = Files.writeString(dir.resolve("bad.jsonl"), """
                {"conversations": [{"from": "human", "value": "Explain gravity to me."}, {"from": "gpt", "value": "It pulls."}]}
                {"conversations": [{"from": "human", "value": 3}, {"from": "gpt"}]}
                """);
        Path notJson = Files.writeString(dir.resolve("broken.jsonl"), "{\"prompt\": \"a\"}\n{\"prompt\": \n");

        assertThatThrownBy(() -> hf(unknown.toString(), PromptStyle.COMPLETION, DatasetOptions.Hf.DEFAULTS, false))
                .hasMessageStartingWith("--dataset-path " + unknown + ": line 1 has the columns [text, label], none of"
                        + " the hf dataset's layouts; expected \"conversations\", \"conversation\" + \"images\"");
        assertThatThrownBy(() -> hf(badTurn.toString(), PromptStyle.COMPLETION, DatasetOptions.Hf.DEFAULTS, false))
                .hasMessage("--dataset-path " + badTurn + " is not in the hf dataset's conversations layout: line 2:"
                        + " conversations[0] needs a string \"value\"; expected [{\"from\": \"human\", \"value\":"
                        + " \"...\"}, ...]");
        assertThatThrownBy(() -> hf(notJson.toString(), PromptStyle.COMPLETION, DatasetOptions.Hf.DEFAULTS, false))
                .hasMessageStartingWith("--dataset-path " + notJson + " is not valid JSONL: line 2 is not JSON");
    }

    @Test
    void nothingLeftAfterTheFilterAndASplitThatMatchesNoFileAreRefused() throws Exception {
        Path shortOnes = Files.writeString(dir.resolve("short.jsonl"), """
                {"conversations": [{"from": "human", "value": "Hi"}, {"from": "gpt", "value": "Hello there, friend."}]}
                """);
        parquet(dir.resolve("folder/data/train-0.parquet"), "SELECT 'Q?' AS question");

        assertThatThrownBy(() -> hf(shortOnes.toString(), PromptStyle.COMPLETION, DatasetOptions.Hf.DEFAULTS, false))
                .hasMessageContaining("of 1 tokenized, dropped: 1 prompt under 4 tokens; no row is left to send");
        assertThatThrownBy(() -> hf(
                        dir.resolve("folder").toString(),
                        PromptStyle.COMPLETION,
                        new DatasetOptions.Hf(null, "validation", null),
                        false))
                .hasMessage("--hf-split validation matches none of the data files under " + dir.resolve("folder")
                        + " (data/train-0.parquet)");
    }

    private static String hex(byte[] bytes) {
        return java.util.HexFormat.of().formatHex(bytes);
    }

    private static byte[] png() throws IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        javax.imageio.ImageIO.write(
                new java.awt.image.BufferedImage(2, 2, java.awt.image.BufferedImage.TYPE_INT_RGB), "png", out);
        return out.toByteArray();
    }

    @Test
    void visionArenaImagesFromParquetBytesGoToOpenAiChatAsDataUrlsAndOtherBackendsRefuseThem() throws Exception {
        byte[] png = png();
        Path file = parquet(
                dir.resolve("va/train-0.parquet"),
                "SELECT [[{'role': 'user', 'content': 'What is in this picture?'}]] AS conversation,"
                        + " [{'bytes': from_hex('" + hex(png) + "'), 'path': 'a.png'}] AS images");

        SampledRequest request = hf(file.toString(), PromptStyle.CHAT, DatasetOptions.Hf.DEFAULTS, false)
                .draw(1, 0)
                .requests()
                .get(0);

        Prompt.Chat chat = (Prompt.Chat) request.prompt();
        assertThat(chat.messages()).containsExactly(ChatMessage.user("What is in this picture?"));
        assertThat(chat.imageUrls())
                .containsExactly(
                        "data:image/png;base64," + java.util.Base64.getEncoder().encodeToString(png));
        assertThat(request.expectedOutputLen()).isEqualTo(128);
        assertThat(request.promptLen()).isEqualTo(qwen3.countTokens("What is in this picture?"));
        assertThatThrownBy(() -> hf(file.toString(), PromptStyle.COMPLETION, DatasetOptions.Hf.DEFAULTS, false))
                .hasMessage("--dataset-path " + file + ": row 0 has an image, and only --backend openai-chat (with"
                        + " --endpoint /v1/chat/completions) sends images; use that backend or rows without images");
    }

    @Test
    void llavaConversationsSendTheRowsImageFileAndBrokenImageBytesAreRefused() throws Exception {
        byte[] png = png();
        Files.write(dir.resolve("cat.png"), png);
        Path llava = Files.writeString(dir.resolve("llava.jsonl"), """
                {"image": "cat.png", "conversations": [{"from": "human", "value": "<image>\\nDescribe the cat in detail."}, {"from": "gpt", "value": "A small grey cat sits on a mat."}]}
                """);
        Path bench = parquet(
                dir.resolve("bench.parquet"),
                "SELECT [[{'role': 'user', 'content': 'Which city?'}]] AS turns,"
                        + " [{'bytes': from_hex('00010203'), 'path': NULL}] AS images");

        SampledRequest request = hf(llava.toString(), PromptStyle.CHAT, DatasetOptions.Hf.DEFAULTS, false)
                .draw(1, 0)
                .requests()
                .get(0);

        assertThat(((Prompt.Chat) request.prompt()).imageUrls())
                .containsExactly(
                        "data:image/png;base64," + java.util.Base64.getEncoder().encodeToString(png));
        assertThat(request.expectedOutputLen()).isEqualTo(qwen3.countTokens("A small grey cat sits on a mat."));
        HfDataset broken = hf(bench.toString(), PromptStyle.CHAT, DatasetOptions.Hf.DEFAULTS, false);
        assertThatThrownBy(() -> broken.draw(1, 0))
                .hasMessage(
                        "--dataset-path " + bench + ": row 0: the image's bytes are no JPEG, PNG, GIF or WebP file");
    }

    @Test
    void onlyTheSampledRowsImagesAreReadSoABrokenOneThatIsNotSentIsNoError() throws Exception {
        byte[] png = png();
        Path arena = parquet(
                dir.resolve("arena.parquet"),
                "SELECT [[{'role': 'user', 'content': 'Picture ' || i}]] AS conversation,"
                        + " [{'bytes': from_hex(CASE WHEN i = 2 THEN '00010203' ELSE '" + hex(png) + "' END),"
                        + " 'path': NULL}] AS images FROM range(3) t(i)");
        Files.write(dir.resolve("cat.png"), png);
        Path llava = Files.writeString(dir.resolve("llava.jsonl"), """
                {"image": "cat.png", "conversations": [{"from": "human", "value": "What is in this picture?"}, {"from": "gpt", "value": "A cat on a mat."}]}
                {"image": "gone.png", "conversations": [{"from": "human", "value": "And what is in this one?"}, {"from": "gpt", "value": "A dog on a log."}]}
                """);
        HfDataset arenaRows = hf(arena.toString(), PromptStyle.CHAT, DatasetOptions.Hf.DEFAULTS, false);

        // In file order (--disable-shuffle): rows 0 and 1 are sent, row 2's bytes are never read.
        assertThat(arenaRows.draw(2, 0).requests())
                .extracting(r -> ((Prompt.Chat) r.prompt()).messages().get(0).content())
                .containsExactly("Picture 0", "Picture 1");
        assertThatThrownBy(() -> arenaRows.draw(3, 0))
                .hasMessage(
                        "--dataset-path " + arena + ": row 2: the image's bytes are no JPEG, PNG, GIF or WebP file");
        assertThat(hf(llava.toString(), PromptStyle.CHAT, DatasetOptions.Hf.DEFAULTS, false)
                        .draw(1, 0)
                        .requests())
                .singleElement()
                .satisfies(r -> assertThat(((Prompt.Chat) r.prompt()).imageUrls())
                        .containsExactly("data:image/png;base64,"
                                + java.util.Base64.getEncoder().encodeToString(png)));
        assertThatThrownBy(() -> hf(llava.toString(), PromptStyle.CHAT, DatasetOptions.Hf.DEFAULTS, false)
                        .draw(2, 0))
                .hasMessageStartingWith(
                        "--dataset-path " + llava + ": line 2: image 'gone.png' is not a readable file");
    }

    @Test
    void asrClipsOutsideTheAudioLengthBoundsAreSkippedAndCountedAsVllmDoes() throws Exception {
        List<String> rows = new java.util.ArrayList<>();
        for (int samples : List.of(16_000, 4_000, 8_000, 32_000)) { // 1 s, 0.25 s, 0.5 s, 2 s at 16 kHz
            rows.add("{\"audio\": {\"array\": " + java.util.Arrays.toString(new double[samples])
                    + ", \"sampling_rate\": 16000}}");
        }
        Path file = Files.write(dir.resolve("asr.jsonl"), rows);
        DatasetOptions options = new DatasetOptions(
                        "hf", file, PromptStyle.AUDIO, DatasetOptions.Random.DEFAULTS, DatasetOptions.Sonnet.DEFAULTS)
                .withFileSampling(new DatasetOptions.FileSampling(true, true))
                .withAsr(new DatasetOptions.Asr(0.3, 1.0));

        Drawn drawn = HfDataset.load(options, qwen3, caches()).draw(3, 0);

        // 1 s is kept (the bounds are inclusive), 0.25 s is dropped, 0.5 s kept, then the last row is read
        // in the dropped one's place and is too long: 2 of 4 sent (--no-oversample).
        assertThat(drawn.requests())
                .extracting(r -> ((Prompt.Audio) r.prompt()).wav().length)
                .containsExactly(44 + 2 * 16_000, 44 + 2 * 8_000);
        assertThat(drawn.requests())
                .as("each clip's seconds, which RTFx sums")
                .extracting(r -> ((Prompt.Audio) r.prompt()).seconds())
                .containsExactly(1.0, 0.5);
        assertThat(drawn.summary())
                .isEqualTo("hf: " + file + ": ASR layout, 1 file: 4 rows, 0 with fewer than 2 turns dropped; no length"
                        + " filter (output length 1024); of 4 clips read, 2 outside 0.3 to 1.0 s dropped"
                        + " (--asr-min/max-audio-len-sec); sampled 2; only 2 of --num-prompts 3 (--no-oversample):"
                        + " the run sends 2");
        assertThatThrownBy(() -> HfDataset.load(options.withAsr(new DatasetOptions.Asr(3, 4)), qwen3, caches())
                        .draw(1, 0))
                .hasMessageEndingWith("of 4 clips read, 4 outside 3.0 to 4.0 s dropped (--asr-min/max-audio-len-sec);"
                        + " no clip is left to send: give --asr-min-audio-len-sec and --asr-max-audio-len-sec bounds"
                        + " that some clips are within");
        assertThatThrownBy(() -> HfDataset.load(options.withAsr(new DatasetOptions.Asr(2, 1)), qwen3, caches()))
                .hasMessage("--asr-max-audio-len-sec must be >= --asr-min-audio-len-sec (2.0), got 1.0");
        // Only the ASR layout checks them: a text dataset with the same flags loads.
        Path prompts = Files.writeString(dir.resolve("prompts.jsonl"), "{\"prompt\": \"Tell me a story.\"}\n");
        assertThat(HfDataset.load(
                                options.withDatasetPath(prompts)
                                        .withPromptStyle(PromptStyle.COMPLETION)
                                        .withCustom(new DatasetOptions.Custom(256, true))
                                        .withAsr(new DatasetOptions.Asr(-1, 1)),
                                qwen3,
                                caches())
                        .draw(1, 0)
                        .requests())
                .hasSize(1);
    }

    @Test
    void asrClipsGoToOpenAiAudioAsWavAndAClipThatIsNoWavIsRefusedBeforeTheRun() throws Exception {
        byte[] wav = Wav.pcm16(new double[] {0, 0.5, -0.5, 1}, 16_000);
        Path librispeech = parquet(
                dir.resolve("asr/train-0.parquet"),
                "SELECT {'bytes': from_hex('" + hex(wav) + "'), 'path': '1.wav'} AS audio, 'HELLO' AS text");
        Path decoded = Files.writeString(
                dir.resolve("decoded.jsonl"),
                "{\"audio\": {\"array\": [0.0, 0.5, -0.5, 1.0], \"sampling_rate\": 16000}}\n");
        Path flac = parquet(
                dir.resolve("flac.parquet"),
                "SELECT {'bytes': from_hex('664C614300000022'), 'path': '1.flac'} AS audio");

        SampledRequest fromBytes = hf(librispeech.toString(), PromptStyle.AUDIO, DatasetOptions.Hf.DEFAULTS, false)
                .draw(1, 0)
                .requests()
                .get(0);
        SampledRequest fromArray = hf(decoded.toString(), PromptStyle.AUDIO, DatasetOptions.Hf.DEFAULTS, false)
                .draw(1, 0)
                .requests()
                .get(0);

        assertThat(((Prompt.Audio) fromBytes.prompt()).wav()).isEqualTo(wav);
        assertThat(((Prompt.Audio) fromArray.prompt()).wav()).isEqualTo(wav);
        assertThat(((Prompt.Audio) fromBytes.prompt()).seconds())
                .as("the file's frames / sampling rate, as soundfile.info reads it")
                .isEqualTo(4 / 16_000.0);
        assertThat(((Prompt.Audio) fromArray.prompt()).seconds()).isEqualTo(4 / 16_000.0);
        assertThat(fromBytes.expectedOutputLen()).isEqualTo(1024);
        HfDataset flacRows = hf(flac.toString(), PromptStyle.AUDIO, DatasetOptions.Hf.DEFAULTS, false);
        assertThatThrownBy(() -> flacRows.draw(1, 0))
                .hasMessageStartingWith(
                        "--dataset-path " + flac + ": row 0: the audio (its bytes) is not a WAV file" + " Java reads")
                .hasMessageEndingWith("convert the clips to PCM WAV (e.g. ffmpeg -i clip.flac clip.wav)");
        assertThatThrownBy(() -> hf(librispeech.toString(), PromptStyle.CHAT, DatasetOptions.Hf.DEFAULTS, false))
                .hasMessageContaining("row 0 has an audio clip, and only --backend openai-audio");
    }

    @Test
    void zetaRowsBecomeVllmsPromptAndAskForTheEditableRegionsLength() throws IOException {
        Path zeta = Files.writeString(dir.resolve("zeta.jsonl"), """
                {"events": "User edited main.py", "input": "x = 1<|user_cursor_is_here|>", "output": "prefix <|editable_region_start|>x = 2"}
                """);

        SampledRequest request = hf(zeta.toString(), PromptStyle.COMPLETION, DatasetOptions.Hf.DEFAULTS, false)
                .draw(1, 0)
                .requests()
                .get(0);

        assertThat(text(request))
                .isEqualTo("### Instruction:\nYou are a code completion assistant and your task is to analyze user"
                        + " edits and then rewrite an excerpt that the user provides, suggesting the appropriate edits"
                        + " within the excerpt, taking into account the cursor location.\n\n### User Edits:\n\n"
                        + "User edited main.py\n\n### User Excerpt:\n\nx = 1<|user_cursor_is_here|>\n\n"
                        + "### Response:\n\n");
        assertThat(request.expectedOutputLen()).isEqualTo(qwen3.countTokens("<|editable_region_start|>x = 2"));
    }
}
