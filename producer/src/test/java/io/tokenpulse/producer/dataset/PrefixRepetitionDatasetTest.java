package io.tokenpulse.producer.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tokenpulse.tokenizers.Tokenizer;
import io.tokenpulse.tokenizers.TokenizerLoader;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** vLLM's prefix_repetition rules on the real Qwen3 tokenizer from {@code testdata/}. */
class PrefixRepetitionDatasetTest {

    static Tokenizer qwen3;

    @BeforeAll
    static void load() {
        qwen3 = new TokenizerLoader(Path.of("no-hub-cache")).load(RandomDatasetTest.QWEN3.toString());
    }

    private static PrefixRepetitionDataset dataset(
            int prefixLen, int suffixLen, int numPrefixes, int outputLen, boolean disableShuffle) {
        DatasetOptions options = new DatasetOptions(
                        "prefix_repetition",
                        null,
                        PromptStyle.COMPLETION,
                        DatasetOptions.Random.DEFAULTS,
                        DatasetOptions.Sonnet.DEFAULTS)
                .withPrefixRepetition(new DatasetOptions.PrefixRepetition(prefixLen, suffixLen, numPrefixes, outputLen))
                .withFileSampling(new DatasetOptions.FileSampling(disableShuffle, false));
        return (PrefixRepetitionDataset) Datasets.create(options, qwen3);
    }

    private static String text(SampledRequest request) {
        return ((Prompt.Text) request.prompt()).text();
    }

    @Test
    void eachPrefixIsSharedByNumPromptsOverNumPrefixesRequestsOfPrefixPlusSuffixTokens() {
        // 23 prompts over 5 prefixes: 4 each, 20 in all (vLLM's floor division).
        List<SampledRequest> requests = dataset(64, 16, 5, 7, true).draw(23, 3).requests();

        assertThat(requests).hasSize(20).allSatisfy(r -> {
            assertThat(r.promptLen()).isEqualTo(64 + 16);
            assertThat(r.expectedOutputLen()).isEqualTo(7);
        });
        assertThat(requests).extracting(SampledRequest::index).containsExactlyElementsOf(range(20));
        // In prefix order (--disable-shuffle): requests 4g..4g+3 start with the same 64 tokens, up to
        // the boundary token that may merge with the suffix when re-encoded; other groups do not.
        int[][] firstTokens = requests.stream()
                .map(r -> Arrays.copyOf(qwen3.encode(text(r)), 62))
                .toArray(int[][]::new);
        for (int i = 0; i < 20; i++) {
            for (int j = 0; j < 20; j++) {
                assertThat(Arrays.equals(firstTokens[i], firstTokens[j]))
                        .as("requests %d and %d", i, j)
                        .isEqualTo(i / 4 == j / 4);
            }
        }
        assertThat(requests.stream().map(PrefixRepetitionDatasetTest::text).distinct())
                .as("every suffix is its own")
                .hasSize(20);
    }

    @Test
    void theSeedShufflesTheSameRequestsAndReproducesThem() {
        List<String> inOrder = dataset(32, 32, 4, 10, true).draw(12, 9).requests().stream()
                .map(PrefixRepetitionDatasetTest::text)
                .toList();
        List<SampledRequest> shuffled =
                dataset(32, 32, 4, 10, false).draw(12, 9).requests();
        List<String> shuffledTexts =
                shuffled.stream().map(PrefixRepetitionDatasetTest::text).toList();

        assertThat(shuffledTexts).containsExactlyInAnyOrderElementsOf(inOrder).isNotEqualTo(inOrder);
        assertThat(shuffled).extracting(SampledRequest::index).containsExactlyElementsOf(range(12));
        assertThat(dataset(32, 32, 4, 10, false).draw(12, 9).requests()).isEqualTo(shuffled);
        assertThat(dataset(32, 32, 4, 10, false).draw(12, 10).requests().stream()
                        .map(PrefixRepetitionDatasetTest::text)
                        .toList())
                .doesNotContainAnyElementsOf(inOrder);
    }

    @Test
    void theLineSaysHowManyAreSentAndWhyFewerThanAsked() {
        assertThat(dataset(8, 8, 3, 5, false).draw(10, 0).summary())
                .isEqualTo("prefix_repetition: 3 prefixes of 8 tokens, 3 prompts each with a suffix of 8 tokens: 9"
                        + " requests, shuffled with --seed; --num-prompts 10 is not a multiple of"
                        + " --prefix-repetition-num-prefixes, so 1 fewer are sent, as vLLM does");
    }

    @Test
    void fewerPromptsThanPrefixesAndEmptyPromptsAreRefused() {
        assertThatThrownBy(() -> dataset(8, 8, 10, 5, false).checkCount(9))
                .hasMessage("--num-prompts 9 must be >= --prefix-repetition-num-prefixes 10: every prefix needs at"
                        + " least one prompt");
        assertThatThrownBy(() -> dataset(0, 0, 10, 5, false)).hasMessageContaining("prompts would be empty");
        assertThatThrownBy(() -> new DatasetOptions.PrefixRepetition(8, 8, 0, 5).checked())
                .hasMessage("--prefix-repetition-num-prefixes must be >= 1, got 0");
    }

    @Test
    void aPrefixAloneOrASuffixAloneStillFitsItsLength() {
        assertThat(dataset(0, 12, 2, 5, true).draw(4, 1).requests())
                .extracting(SampledRequest::promptLen)
                .containsOnly(12);
        List<SampledRequest> prefixOnly = dataset(12, 0, 2, 5, true).draw(4, 1).requests();
        assertThat(text(prefixOnly.get(0))).isEqualTo(text(prefixOnly.get(1)));
        assertThat(text(prefixOnly.get(1))).isNotEqualTo(text(prefixOnly.get(2)));
    }

    private static List<Integer> range(int n) {
        return java.util.stream.IntStream.range(0, n).boxed().toList();
    }
}
