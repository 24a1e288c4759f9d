package io.tokenpulse.producer.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tokenpulse.tokenizers.Tokenizer;
import io.tokenpulse.tokenizers.TokenizerLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The random dataset on the real Qwen3 tokenizer from {@code testdata/}. */
class RandomDatasetTest {

    static final Path QWEN3 = Path.of("..", "testdata", "tokenizers", "qwen3");

    static Tokenizer qwen3;

    @BeforeAll
    static void load() {
        qwen3 = new TokenizerLoader(Path.of("no-hub-cache")).load(QWEN3.toString());
    }

    private static Dataset random(int inputLen, int outputLen, double ratio, int prefixLen) {
        return Datasets.create(
                new DatasetOptions(
                        "random",
                        null,
                        PromptStyle.COMPLETION,
                        new DatasetOptions.Random(inputLen, outputLen, ratio, prefixLen),
                        DatasetOptions.Sonnet.DEFAULTS),
                qwen3);
    }

    private static String text(SampledRequest request) {
        return ((Prompt.Text) request.prompt()).text();
    }

    @ParameterizedTest(name = "input {0} + prefix {1}")
    @CsvSource({"1, 0", "7, 0", "128, 0", "1024, 0", "3000, 0", "100, 50", "0, 20"})
    void everyPromptReEncodesToExactlyTheAskedLength(int inputLen, int prefixLen) {
        List<SampledRequest> requests = random(inputLen, 16, 0.0, prefixLen).sample(20, 42);

        assertThat(requests).hasSize(20).allSatisfy(request -> {
            assertThat(request.promptLen()).isEqualTo(prefixLen + inputLen);
            assertThat(qwen3.countTokens(text(request))).isEqualTo(request.promptLen());
            assertThat(request.expectedOutputLen()).isEqualTo(16);
        });
        assertThat(requests)
                .extracting(SampledRequest::index)
                .containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19);
    }

    @Test
    void aBatchSizeAboveOneSendsConsecutivePromptsAsOneListAsVllmDoesForEmbeddings() {
        DatasetOptions options = new DatasetOptions(
                "random",
                null,
                PromptStyle.COMPLETION,
                new DatasetOptions.Random(16, 8, 0.0, 0),
                DatasetOptions.Sonnet.DEFAULTS);
        List<SampledRequest> single = Datasets.create(options, qwen3).sample(7, 5);
        List<SampledRequest> batched = Datasets.create(
                        options.withRandomBatch(new DatasetOptions.RandomBatch(3, false)), qwen3)
                .sample(7, 5);

        assertThat(batched).extracting(SampledRequest::index).containsExactly(0, 1, 2);
        assertThat(batched).extracting(SampledRequest::promptLen).containsExactly(48, 48, 16);
        assertThat(batched).extracting(SampledRequest::expectedOutputLen).containsOnly(1);
        assertThat(batched.stream().flatMap(r -> ((Prompt.Texts) r.prompt()).texts().stream()))
                .containsExactlyElementsOf(
                        single.stream().map(RandomDatasetTest::text).toList());
        // vLLM batches only above 1
        assertThat(Datasets.create(options.withRandomBatch(new DatasetOptions.RandomBatch(0, false)), qwen3)
                        .sample(7, 5))
                .isEqualTo(single);
    }

    // Bounds worked by hand: [floor(X(1-r)), ceil(X(1+r))], output low at least 1.
    @ParameterizedTest(name = "in {0} out {1} ratio {2}")
    @CsvSource({
        "1000, 100, 0.5,  500, 1500,  50, 150",
        "1024, 128, 0.1,  921, 1127, 115, 141",
        "10,   1,   0.9,    0,   19,   1,   2",
    })
    void lengthsStayWithinTheRangeRatioBounds(
            int inputLen, int outputLen, double ratio, int inLow, int inHigh, int outLow, int outHigh) {
        List<SampledRequest> requests = random(inputLen, outputLen, ratio, 5).sample(60, 7);

        assertThat(requests).allSatisfy(request -> {
            assertThat(request.promptLen()).isBetween(5 + inLow, 5 + inHigh);
            assertThat(qwen3.countTokens(text(request))).isEqualTo(request.promptLen());
            assertThat(request.expectedOutputLen()).isBetween(outLow, outHigh);
        });
        Set<Integer> distinctInputs =
                requests.stream().map(SampledRequest::promptLen).collect(Collectors.toSet());
        assertThat(distinctInputs).as("lengths are spread over the range").hasSizeGreaterThan(1);
    }

    @Test
    void prefixIsSharedByEveryPrompt() {
        List<SampledRequest> requests = random(64, 8, 0.0, 100).sample(10, 3);
        String first = text(requests.get(0));

        // The prefix's 100 tokens decode to one text; at most its last token can merge with what follows.
        String sharedText = qwen3.decode(java.util.Arrays.copyOf(qwen3.encode(first), 98));
        assertThat(requests).allSatisfy(request -> assertThat(text(request)).startsWith(sharedText));
    }

    @Test
    void sameSeedGivesSameRequestsAndAnotherSeedDiffers() {
        Dataset dataset = random(200, 50, 0.3, 10);

        assertThat(dataset.sample(30, 1)).isEqualTo(dataset.sample(30, 1));
        assertThat(dataset.sample(30, 2)).isNotEqualTo(dataset.sample(30, 1));
    }

    @Test
    void chatBackendsGetTheTextAsOneUserMessage() {
        Dataset chat = Datasets.create(
                new DatasetOptions(
                        "random",
                        null,
                        PromptStyle.CHAT,
                        new DatasetOptions.Random(32, 8, 0.0, 0),
                        DatasetOptions.Sonnet.DEFAULTS),
                qwen3);

        SampledRequest request = chat.sample(1, 0).get(0);

        Prompt.Chat prompt = (Prompt.Chat) request.prompt();
        assertThat(prompt.messages()).hasSize(1);
        assertThat(prompt.messages().get(0).role()).isEqualTo("user");
        assertThat(qwen3.countTokens(prompt.messages().get(0).content())).isEqualTo(32);
    }

    @Test
    void promptsNeverContainSpecialTokens() {
        List<SampledRequest> requests = random(2000, 8, 0.0, 0).sample(5, 11);

        assertThat(requests)
                .allSatisfy(request -> assertThat(java.util.Arrays.stream(qwen3.encode(text(request)))
                                .max()
                                .orElse(0))
                        .isLessThan(qwen3.vocabSize()));
    }

    @Test
    void emptyPromptIsRejected() {
        assertThatThrownBy(() -> random(0, 8, 0.0, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--random-input-len 0 is too small");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "ratio 1        | 10 | 5 | 1.0 | 0  | --random-range-ratio must be in [0, 1), got 1.0",
                "negative ratio | 10 | 5 | -0.1| 0  | --random-range-ratio must be in [0, 1), got -0.1",
                "negative input | -1 | 5 | 0.0 | 0  | --random-input-len must be >= 0, got -1",
                "negative prefix| 10 | 5 | 0.0 | -3 | --random-prefix-len must be >= 0, got -3",
            })
    void badFlagsGetOneLineNamingTheFlag(
            String why, int inputLen, int outputLen, double ratio, int prefix, String message) {
        assertThatThrownBy(() -> new DatasetOptions.Random(inputLen, outputLen, ratio, prefix))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(message);
    }

    @Test
    void gpt2FallbackAlsoGetsExactLengths() {
        Tokenizer gpt2 = new TokenizerLoader(Path.of("no-hub-cache")).load("gpt2");
        Dataset dataset = Datasets.create(
                new DatasetOptions(
                        "random",
                        null,
                        PromptStyle.COMPLETION,
                        new DatasetOptions.Random(256, 8, 0.0, 0),
                        DatasetOptions.Sonnet.DEFAULTS),
                gpt2);

        assertThat(dataset.sample(20, 5)).allSatisfy(request -> {
            assertThat(request.promptLen()).isEqualTo(256);
            assertThat(gpt2.countTokens(text(request))).isEqualTo(256);
        });
    }
}
