package io.tokenpulse.producer.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tokenpulse.tokenizers.Tokenizer;
import io.tokenpulse.tokenizers.TokenizerLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The burstgpt dataset on a small BurstGPT CSV written here and the real Qwen3 tokenizer. */
class BurstGptDatasetTest {

    // The usable rows: request tokens -> response tokens (each request length once, so a request
    // tells its row).
    static final Map<Integer, Integer> USABLE = Map.of(12, 30, 57, 110, 230, 18, 5, 401, 96, 64);

    static final String CSV = """
            Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type
            5,ChatGPT,472,18,490,Conversation log
            45,GPT-4,12,30,42,Conversation log
            118,GPT-4,57,110,167,API log
            200,GPT-4,999,0,999,Conversation log
            230,ChatGPT,33,11,44,API log
            301,GPT-4,230,18,248,Conversation log

            377,GPT-4,5,401,406,API log
            410,GPT-4,96,64,160,Conversation log
            """;

    static Tokenizer qwen3;
    static Path file;

    @TempDir
    static Path dir;

    @BeforeAll
    static void write() throws IOException {
        qwen3 = new TokenizerLoader(Path.of("no-hub-cache")).load(RandomDatasetTest.QWEN3.toString());
        file = Files.writeString(dir.resolve("burstgpt.csv"), CSV);
    }

    static BurstGptDataset load(Path path, PromptStyle style) {
        return (BurstGptDataset) Datasets.create(
                new DatasetOptions(
                        "burstgpt", path, style, DatasetOptions.Random.DEFAULTS, DatasetOptions.Sonnet.DEFAULTS),
                qwen3);
    }

    static String text(SampledRequest request) {
        return ((Prompt.Text) request.prompt()).text();
    }

    @Test
    void requestsTakeTheRowsLengthsWithoutReplacementWhenTheFileIsLongEnough() {
        Drawn drawn = load(file, PromptStyle.COMPLETION).draw(4, 0);

        assertThat(drawn.requests()).hasSize(4).allSatisfy(request -> {
            assertThat(USABLE).containsKey(request.promptLen());
            assertThat(qwen3.countTokens(text(request))).isEqualTo(request.promptLen());
            assertThat(request.expectedOutputLen()).isEqualTo(USABLE.get(request.promptLen()));
        });
        assertThat(drawn.requests()).extracting(SampledRequest::promptLen).doesNotHaveDuplicates();
        assertThat(drawn.requests()).extracting(SampledRequest::index).containsExactly(0, 1, 2, 3);
        assertThat(drawn.summary())
                .isEqualTo("burstgpt: " + file + ": 8 rows, 3 dropped (not model GPT-4 or 0"
                        + " response tokens); sampled 4 of 5 without replacement");
    }

    @Test
    void aShortFileIsSampledWithReplacement() {
        Drawn drawn = load(file, PromptStyle.COMPLETION).draw(40, 3);

        assertThat(drawn.requests())
                .hasSize(40)
                .allSatisfy(
                        request -> assertThat(request.expectedOutputLen()).isEqualTo(USABLE.get(request.promptLen())));
        assertThat(drawn.requests().stream().map(SampledRequest::promptLen).collect(Collectors.toSet()))
                .as("40 draws from 5 rows reach every row")
                .isEqualTo(USABLE.keySet());
        assertThat(drawn.summary())
                .endsWith("sampled 40 of 5 with replacement (the file has fewer usable rows than" + " --num-prompts)");
    }

    @Test
    void promptsDifferPerRequestLikeTheRandomDatasetsAndNeverHoldSpecialTokens() {
        List<SampledRequest> requests = load(file, PromptStyle.COMPLETION).sample(10, 1);

        assertThat(requests).extracting(BurstGptDatasetTest::text).doesNotHaveDuplicates();
        assertThat(requests)
                .allSatisfy(request -> assertThat(java.util.Arrays.stream(qwen3.encode(text(request)))
                                .boxed())
                        .noneMatch(qwen3.specialTokenIds()::contains));
    }

    @Test
    void theSeedFixesTheDrawAndAnotherSeedChangesIt() {
        BurstGptDataset dataset = load(file, PromptStyle.COMPLETION);

        assertThat(dataset.sample(3, 11))
                .isEqualTo(load(file, PromptStyle.COMPLETION).sample(3, 11));
        List<List<Integer>> draws = List.of(12L, 13L, 14L, 15L).stream()
                .map(seed -> dataset.sample(3, seed).stream()
                        .map(SampledRequest::promptLen)
                        .toList())
                .toList();
        List<Integer> first =
                dataset.sample(3, 11).stream().map(SampledRequest::promptLen).toList();
        assertThat(draws).anySatisfy(draw -> assertThat(draw).isNotEqualTo(first));
    }

    @Test
    void chatBackendsGetTheTextAsOneUserMessage() {
        SampledRequest request = load(file, PromptStyle.CHAT).sample(1, 0).get(0);

        String content = ((Prompt.Chat) request.prompt()).messages().get(0).content();
        assertThat(qwen3.countTokens(content)).isEqualTo(request.promptLen());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "no response column | 'Timestamp,Model,Request tokens,Total tokens\n1,GPT-4,3,9\n'"
                        + " | is not a BurstGPT CSV: its header has no 'Response tokens' column; expected Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type",
                "not a number       | 'Timestamp,Model,Request tokens,Response tokens\n1,GPT-4,3,9\n2,GPT-4,many,9\n'"
                        + " | is not a BurstGPT CSV: line 3: 'Request tokens' is 'many'; expected a whole number >= 0",
                "negative tokens    | 'Timestamp,Model,Request tokens,Response tokens\n1,GPT-4,-3,9\n'"
                        + " | is not a BurstGPT CSV: line 2: 'Request tokens' is '-3'; expected a whole number >= 0",
                "short row          | 'Timestamp,Model,Request tokens,Response tokens\n1,GPT-4\n'"
                        + " | is not a BurstGPT CSV: line 2 has 2 cells; expected Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type",
                "empty              | ''"
                        + " | is not a BurstGPT CSV: it is empty; expected the header Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type",
                "no usable row      | 'Timestamp,Model,Request tokens,Response tokens\n1,ChatGPT,3,9\n2,GPT-4,4,0\n'"
                        + " | : none of its 2 rows is of model GPT-4 with more than 0 response tokens, the only rows the burstgpt dataset uses",
            })
    void badFilesGetOneLineNamingTheFileAndWhatWasExpected(String why, String content, String message)
            throws IOException {
        Path bad = Files.writeString(dir.resolve(why.replace(' ', '-') + ".csv"), content);

        assertThatThrownBy(() -> load(bad, PromptStyle.COMPLETION))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--dataset-path " + bad + (message.startsWith(":") ? "" : " ") + message);
    }

    @Test
    void missingFileNamesThePath() {
        Path missing = dir.resolve("nope.csv");

        assertThatThrownBy(() -> load(missing, PromptStyle.COMPLETION))
                .hasMessageStartingWith("--dataset-path " + missing + " cannot be read (");
    }
}
