package io.tokenpulse.producer.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tokenpulse.tokenizers.Tokenizer;
import io.tokenpulse.tokenizers.TokenizerLoader;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * vLLM's {@code random-rerank} dataset ({@code RandomDatasetForReranking}) on the real Qwen3
 * tokenizer, which adds no special tokens, so the lengths below are worked by hand from the flags.
 */
class RandomRerankDatasetTest {

    private static Tokenizer qwen3;

    @BeforeAll
    static void load() {
        qwen3 = new TokenizerLoader(Path.of("no-hub-cache")).load(RandomDatasetTest.QWEN3.toString());
        assertThat(qwen3.numSpecialTokensToAdd()).isZero();
    }

    private static Dataset rerank(int inputLen, double ratio, int batchSize, boolean noReranker) {
        return Datasets.create(options(inputLen, ratio, batchSize, noReranker), qwen3);
    }

    private static DatasetOptions options(int inputLen, double ratio, int batchSize, boolean noReranker) {
        return new DatasetOptions(
                        "random-rerank",
                        null,
                        PromptStyle.COMPLETION,
                        new DatasetOptions.Random(inputLen, 128, ratio, 0),
                        DatasetOptions.Sonnet.DEFAULTS)
                .withRandomBatch(new DatasetOptions.RandomBatch(batchSize, noReranker));
    }

    private static List<String> texts(SampledRequest request) {
        return ((Prompt.Texts) request.prompt()).texts();
    }

    @Test
    void aCrossEncodersRequestIsTheQueryOfHalfTheInputLessTheSeparatorAndOneDocumentOfTheRest() {
        List<SampledRequest> requests = rerank(64, 0.0, 1, false).sample(5, 0);

        assertThat(requests).hasSize(5).extracting(SampledRequest::index).containsExactly(0, 1, 2, 3, 4);
        String query = texts(requests.get(0)).get(0);
        assertThat(requests).allSatisfy(request -> {
            List<String> texts = texts(request);
            assertThat(texts).hasSize(2);
            assertThat(texts.get(0)).isEqualTo(query);
            // query 64/2 - 1 = 31, document 64 - 31 - 1 = 32, the separator counted once per pair
            assertThat(qwen3.countTokens(texts.get(0))).isEqualTo(31);
            assertThat(qwen3.countTokens(texts.get(1))).isEqualTo(32);
            assertThat(request.promptLen()).isEqualTo(64);
            assertThat(request.expectedOutputLen()).isEqualTo(1);
        });
        assertThat(requests).extracting(r -> texts(r).get(1)).doesNotHaveDuplicates();
    }

    @Test
    void aBatchIsTheQueryThenUpToBatchSizeDocumentsAndTheQueryCountsOncePerDocument() {
        List<SampledRequest> requests = rerank(64, 0.0, 3, false).sample(7, 0);

        // 7 documents in batches of 3: 3, 3, 1
        assertThat(requests).extracting(r -> texts(r).size()).containsExactly(4, 4, 2);
        assertThat(requests).extracting(SampledRequest::promptLen).containsExactly(3 * 64, 3 * 64, 64);
        assertThat(requests).extracting(SampledRequest::index).containsExactly(0, 1, 2);
    }

    @Test
    void withoutRerankerTheFirstDocumentIsTheQueryAndCountsOnceAtTheFullInputLength() {
        List<SampledRequest> requests = rerank(20, 0.0, 3, true).sample(7, 0);

        // 6 documents in batches of 2, query and documents 20 tokens each, no separator
        assertThat(requests).hasSize(3).allSatisfy(request -> {
            List<String> texts = texts(request);
            assertThat(texts).hasSize(3);
            assertThat(texts)
                    .allSatisfy(text -> assertThat(qwen3.countTokens(text)).isEqualTo(20));
            assertThat(request.promptLen()).isEqualTo(60);
        });
    }

    @Test
    void lengthsStayInTheRangeRatiosBounds() {
        // query around 100/2 - 1 = 49: [floor(49 * 0.5), ceil(49 * 1.5)] = [24, 74]
        List<SampledRequest> requests = rerank(100, 0.5, 1, false).sample(200, 3);

        int query = qwen3.countTokens(texts(requests.get(0)).get(0));
        assertThat(query).isBetween(24, 74);
        int documentBase = 100 - query - 1;
        List<Integer> documents =
                requests.stream().map(r -> qwen3.countTokens(texts(r).get(1))).toList();
        assertThat(documents)
                .allSatisfy(len -> assertThat(len)
                        .isBetween((int) Math.floor(documentBase * 0.5), (int) Math.ceil(documentBase * 1.5)));
        assertThat(documents.stream().distinct().count()).isGreaterThan(10);
        assertThat(requests)
                .allSatisfy(r -> assertThat(r.promptLen()).isEqualTo(query + 1 + qwen3.countTokens(texts(r).get(1))));
    }

    @Test
    void theSameSeedDrawsTheSameRequestsAndAnotherSeedOthers() {
        Dataset dataset = rerank(64, 0.3, 2, false);

        List<SampledRequest> first = dataset.sample(10, 7);
        assertThat(dataset.sample(10, 7)).isEqualTo(first);
        assertThat(rerank(64, 0.3, 2, false).sample(10, 7)).isEqualTo(first);
        assertThat(dataset.sample(10, 8)).isNotEqualTo(first);
    }

    @Test
    void badFlagsAreOneLineNamingTheFlagBeforeAnythingIsDrawn() {
        assertThatThrownBy(() -> rerank(64, 0.0, 0, false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--random-batch-size must be >= 1, got 0");
        assertThatThrownBy(() -> rerank(64, 0.0, 1, true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--no-reranker")
                .hasMessageContaining("--random-batch-size to 2 or more");
        assertThatThrownBy(() -> rerank(2, 0.0, 1, false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--random-input-len 2 is too small for random-rerank");
        assertThatThrownBy(() -> rerank(20, 0.0, 2, true).checkCount(1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("set --num-prompts to 2 or more");
    }

    @Test
    void randomRerankAndBatchedRandomSendTextLists() {
        assertThat(Datasets.names()).contains("random-rerank");
        assertThat(Datasets.sendsTextLists(options(64, 0.0, 1, false))).isTrue();
        DatasetOptions random = options(64, 0.0, 1, false).withName("random");
        assertThat(Datasets.sendsTextLists(random)).isFalse();
        assertThat(Datasets.sendsTextLists(random.withRandomBatch(new DatasetOptions.RandomBatch(2, false))))
                .isTrue();
    }
}
