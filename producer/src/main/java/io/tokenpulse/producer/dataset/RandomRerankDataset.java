package io.tokenpulse.producer.dataset;

import io.tokenpulse.tokenizers.Tokenizer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * vLLM's {@code random-rerank} dataset ({@code RandomDatasetForReranking}): one synthetic query and
 * {@code --num-prompts} synthetic documents, sent as list prompts of the query followed by
 * {@code --random-batch-size} documents ({@link Prompt.Texts}), so a run sends
 * {@code ceil(num-prompts / batch size)} requests.
 *
 * <p>Lengths, with {@code X = --random-input-len}, {@code r = --random-range-ratio} and each length
 * drawn as the {@code random} dataset draws its input length (special tokens taken off, uniform in
 * {@code [floor(L(1-r)), ceil(L(1+r))]}): for a cross-encoder, the query around {@code X/2 - 1} and
 * each document around {@code X - query - 1}, one token of each pair being the separator; a request's
 * input tokens are {@code (query + 1)} per document plus the documents. With {@code --no-reranker} (an
 * embedding model) there is no separator: the query and each document are around {@code X}, the first
 * document and one batch place go to the query, so {@code num-prompts - 1} documents in batches of
 * {@code batch size - 1}, and the query counts once per request. Each text is the consecutive allowed
 * ids from a random offset, shifted by its index (the query 0, document i at i + 1), fitted to its
 * length as the random dataset's prompts are. {@code --random-prefix-len} and
 * {@code --random-output-len} do not apply (vLLM passes neither); a request asks for no output.
 */
final class RandomRerankDataset extends NamedDataset {

    static final String NAME = "random-rerank";

    private static final Logger log = LoggerFactory.getLogger(RandomRerankDataset.class);

    private final Tokenizer tokenizer;
    private final DatasetOptions.Random random;
    private final DatasetOptions.RandomBatch rerank;
    private final int[] allowedIds;
    /** The separator tokens per query-document pair: 1 for a cross-encoder, 0 with --no-reranker. */
    private final int separators;

    RandomRerankDataset(Tokenizer tokenizer, DatasetOptions options) {
        super(NAME);
        this.tokenizer = tokenizer;
        this.random = options.random();
        this.rerank = options.randomBatch().checked();
        this.allowedIds = TokenSequencePrompt.allowedIds(tokenizer);
        this.separators = rerank.noReranker() ? 0 : 1;
        int queryLow = lengthRange(queryLenParam())[0];
        int documentLow = lengthRange(documentLenParam(lengthRange(queryLenParam())[1]))[0];
        if (queryLow < 1 || documentLow < 1) {
            throw new IllegalArgumentException("--random-input-len " + random.inputLen()
                    + " is too small for random-rerank: the query or a document could have 0 tokens (range ratio "
                    + random.rangeRatio() + "); raise --random-input-len");
        }
    }

    @Override
    public void checkCount(int numRequests) {
        if (rerank.noReranker() && numRequests < 2) {
            throw new IllegalArgumentException("--no-reranker takes the first of the --num-prompts documents as the"
                    + " query; set --num-prompts to 2 or more, got " + numRequests);
        }
    }

    @Override
    public List<SampledRequest> sample(int numRequests, long seed) {
        refuseNegative(numRequests);
        checkCount(numRequests);
        SplittableRandom draws = new SplittableRandom(seed);
        // Drawn in vLLM's order: the query's length and offset, then all documents' lengths and offsets.
        int queryLen = draw(draws, lengthRange(queryLenParam()));
        int queryOffset = draws.nextInt(0, tokenizer.vocabSize());
        int documents = rerank.noReranker() ? numRequests - 1 : numRequests;
        int batchSize = rerank.noReranker() ? rerank.batchSize() - 1 : rerank.batchSize();
        int[] documentRange = lengthRange(documentLenParam(queryLen));
        int[] documentLens = new int[documents];
        for (int i = 0; i < documents; i++) {
            documentLens[i] = draw(draws, documentRange);
        }
        int[] documentOffsets = new int[documents];
        for (int i = 0; i < documents; i++) {
            documentOffsets[i] = draws.nextInt(0, tokenizer.vocabSize());
        }

        TokenSequencePrompt query = text(queryLen, queryOffset, 0, draws);
        int mismatchTotal = query.tokenCount() - queryLen;
        List<TokenSequencePrompt> texts = new ArrayList<>(documents);
        for (int i = 0; i < documents; i++) {
            TokenSequencePrompt document = text(documentLens[i], documentOffsets[i], i + 1, draws);
            mismatchTotal += document.tokenCount() - documentLens[i];
            texts.add(document);
        }
        if (mismatchTotal != 0) {
            log.warn(
                    "random-rerank texts have {} tokens {} than asked after decoding and re-encoding",
                    Math.abs(mismatchTotal),
                    mismatchTotal > 0 ? "more" : "fewer");
        }

        List<SampledRequest> requests = new ArrayList<>();
        for (int first = 0; first < documents; first += batchSize) {
            List<TokenSequencePrompt> batch = texts.subList(first, Math.min(first + batchSize, documents));
            List<String> prompt = new ArrayList<>(batch.size() + 1);
            prompt.add(query.text());
            int promptLen = rerank.noReranker() ? query.tokenCount() : (query.tokenCount() + separators) * batch.size();
            for (TokenSequencePrompt document : batch) {
                prompt.add(document.text());
                promptLen += document.tokenCount();
            }
            requests.add(new SampledRequest(
                    new Prompt.Texts(prompt), promptLen, Prompt.Texts.OUTPUT_LEN, first / batchSize));
        }
        return requests;
    }

    /** The length the query is drawn around: half the input less the separator, or the whole input. */
    private int queryLenParam() {
        return rerank.noReranker() ? random.inputLen() : random.inputLen() / 2 - separators;
    }

    /** The length documents are drawn around: what the query and separator leave, or the whole input. */
    private int documentLenParam(int queryLen) {
        return rerank.noReranker() ? random.inputLen() : random.inputLen() - queryLen - separators;
    }

    /** vLLM's {@code get_sampling_params} input range around {@code lenParam}: {low, high}, both inclusive. */
    private int[] lengthRange(int lenParam) {
        int real = Math.max(0, lenParam - tokenizer.numSpecialTokensToAdd());
        return new int[] {
            (int) Math.floor(real * (1 - random.rangeRatio())), (int) Math.ceil(real * (1 + random.rangeRatio()))
        };
    }

    private static int draw(SplittableRandom draws, int[] range) {
        return draws.nextInt(range[0], range[1] + 1);
    }

    /** The consecutive allowed ids from {@code offset + index}, fitted to {@code length} tokens. */
    private TokenSequencePrompt text(int length, int offset, int index, SplittableRandom draws) {
        int[] ids = new int[length];
        for (int k = 0; k < length; k++) {
            ids[k] = allowedIds[(int) (((long) offset + index + k) % allowedIds.length)];
        }
        return TokenSequencePrompt.fit(tokenizer, ids, length, allowedIds, draws);
    }
}
