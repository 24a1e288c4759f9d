package io.tokenpulse.producer.dataset;

import io.tokenpulse.tokenizers.Tokenizer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * vLLM's {@code random} dataset: synthetic prompts of token ids taken from the vocabulary.
 *
 * <p>Per request: an input length uniform in {@code [floor(X(1-r)), ceil(X(1+r))]} where
 * {@code X = --random-input-len - num_special_tokens_to_add} and {@code r = --random-range-ratio};
 * an output length uniform in {@code [max(1, floor(Y(1-r))), max(1, ceil(Y(1+r)))]}; a random
 * offset. The prompt is one shared random prefix of {@code --random-prefix-len} tokens followed by
 * the consecutive allowed ids {@code (offset + index + k) mod |allowed|}, decoded and re-encoded
 * until it has exactly {@code prefix + input length} tokens ({@link TokenSequencePrompt}). With
 * {@code --random-batch-size} above 1, as in vLLM, each that many consecutive prompts are one list prompt
 * ({@link Prompt.Texts}), for the embeddings backend.
 */
final class RandomDataset extends NamedDataset {

    static final String NAME = "random";

    private static final Logger log = LoggerFactory.getLogger(RandomDataset.class);

    private final Tokenizer tokenizer;
    private final DatasetOptions.Random flags;
    private final PromptStyle style;
    private final DatasetOptions.RandomBatch batch;
    private final int[] allowedIds;
    private final int inputLow;
    private final int inputHigh;
    private final int outputLow;
    private final int outputHigh;

    RandomDataset(
            Tokenizer tokenizer, DatasetOptions.Random flags, PromptStyle style, DatasetOptions.RandomBatch batch) {
        super(NAME);
        this.tokenizer = tokenizer;
        this.flags = flags;
        this.style = style;
        this.batch = batch;
        this.allowedIds = TokenSequencePrompt.allowedIds(tokenizer);
        int realInputLen = Math.max(0, flags.inputLen() - tokenizer.numSpecialTokensToAdd());
        double ratio = flags.rangeRatio();
        this.inputLow = (int) Math.floor(realInputLen * (1 - ratio));
        this.inputHigh = (int) Math.ceil(realInputLen * (1 + ratio));
        this.outputLow = Math.max(1, (int) Math.floor(flags.outputLen() * (1 - ratio)));
        this.outputHigh = Math.max(1, (int) Math.ceil(flags.outputLen() * (1 + ratio)));
        if (flags.prefixLen() + inputLow < 1) {
            throw new IllegalArgumentException("--random-input-len " + flags.inputLen() + " is too small: with "
                    + tokenizer.numSpecialTokensToAdd() + " special tokens and range ratio " + ratio
                    + " a prompt could have 0 tokens; raise --random-input-len or --random-prefix-len");
        }
        log.info(
                "Sampling input_len from [{}, {}] and output_len from [{}, {}]",
                inputLow,
                inputHigh,
                outputLow,
                outputHigh);
    }

    @Override
    public List<SampledRequest> sample(int numRequests, long seed) {
        refuseNegative(numRequests);
        SplittableRandom random = new SplittableRandom(seed);
        // Drawn in vLLM's order: all input lengths, all output lengths, all offsets, then the prefix.
        int[] inputLens = draw(random, numRequests, inputLow, inputHigh + 1);
        int[] outputLens = draw(random, numRequests, outputLow, outputHigh + 1);
        int[] offsets = draw(random, numRequests, 0, tokenizer.vocabSize());
        int[] prefix = prefix(random);

        List<SampledRequest> requests = new ArrayList<>(numRequests);
        List<String> texts = new ArrayList<>(numRequests);
        int mismatchTotal = 0;
        for (int i = 0; i < numRequests; i++) {
            int target = prefix.length + inputLens[i];
            int[] ids = new int[target];
            System.arraycopy(prefix, 0, ids, 0, prefix.length);
            for (int k = 0; k < inputLens[i]; k++) {
                ids[prefix.length + k] = allowedIds[(int) (((long) offsets[i] + i + k) % allowedIds.length)];
            }
            TokenSequencePrompt prompt = TokenSequencePrompt.fit(tokenizer, ids, target, allowedIds, random);
            mismatchTotal += prompt.tokenCount() - target;
            requests.add(new SampledRequest(Prompt.of(prompt.text(), style), prompt.tokenCount(), outputLens[i], i));
            texts.add(prompt.text());
        }
        if (mismatchTotal != 0) {
            log.warn(
                    "random prompts have {} tokens {} than asked after decoding and re-encoding",
                    Math.abs(mismatchTotal),
                    mismatchTotal > 0 ? "more" : "fewer");
        }
        return batch.batchesRandom() ? batched(requests, texts) : requests;
    }

    /**
     * vLLM's batches for the embeddings backend: each {@code --random-batch-size} consecutive prompts as
     * one list prompt, their lengths summed (the last batch may be smaller).
     */
    private List<SampledRequest> batched(List<SampledRequest> requests, List<String> texts) {
        int size = batch.batchSize();
        List<SampledRequest> batches = new ArrayList<>();
        for (int first = 0; first < requests.size(); first += size) {
            int end = Math.min(first + size, requests.size());
            int promptLen = requests.subList(first, end).stream()
                    .mapToInt(SampledRequest::promptLen)
                    .sum();
            batches.add(new SampledRequest(
                    new Prompt.Texts(texts.subList(first, end)), promptLen, Prompt.Texts.OUTPUT_LEN, first / size));
        }
        return batches;
    }

    /** The shared prefix as re-encoded ids, so every prompt starts with the same tokens. */
    private int[] prefix(SplittableRandom random) {
        if (flags.prefixLen() == 0) {
            return new int[0];
        }
        int[] ids = TokenSequencePrompt.draw(flags.prefixLen(), allowedIds, random);
        return TokenSequencePrompt.fit(tokenizer, ids, flags.prefixLen(), allowedIds, random)
                .ids();
    }

    private static int[] draw(SplittableRandom random, int count, int lowInclusive, int highExclusive) {
        int[] values = new int[count];
        for (int i = 0; i < count; i++) {
            values[i] = random.nextInt(lowInclusive, highExclusive);
        }
        return values;
    }
}
