package io.tokenpulse.producer.dataset;

import io.tokenpulse.tokenizers.Tokenizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;

/**
 * Current vLLM's {@code prefix_repetition} dataset: {@code --prefix-repetition-num-prefixes}
 * random prefixes of {@code --prefix-repetition-prefix-len} tokens, each followed by
 * {@code --num-prompts / num-prefixes} (rounded down) random suffixes of
 * {@code --prefix-repetition-suffix-len} tokens, every request asking for
 * {@code --prefix-repetition-output-len} tokens: a server's prefix cache sees each prefix reused.
 *
 * <p>Each prefix and each suffix is drawn from the vocabulary without special tokens (vLLM draws
 * from all of it) and fitted to its length on its own ({@link TokenSequencePrompt}, vLLM's
 * {@code gen_prompt_decode_to_target_len}); the prompt is the prefix's ids followed by the
 * suffix's, decoded, and its length the sum of the two, as vLLM counts it. So
 * {@code num-prefixes * floor(num-prompts / num-prefixes)} requests are sent, fewer than
 * {@code --num-prompts} when it is not a multiple (vLLM's rule; the line says so). The requests are
 * shuffled with {@code --seed} unless {@code --disable-shuffle}, which keeps each prefix's requests
 * together.
 */
final class PrefixRepetitionDataset extends SummarizingDataset {

    static final String NAME = "prefix_repetition";

    private final Tokenizer tokenizer;
    private final DatasetOptions.PrefixRepetition flags;
    private final PromptStyle style;
    private final boolean disableShuffle;
    private final int[] allowedIds;

    PrefixRepetitionDataset(Tokenizer tokenizer, DatasetOptions options) {
        super(NAME);
        this.tokenizer = tokenizer;
        this.flags = options.prefixRepetition().checked();
        this.style = options.promptStyle();
        this.disableShuffle = options.fileSampling().disableShuffle();
        this.allowedIds = TokenSequencePrompt.allowedIds(tokenizer);
        if (flags.prefixLen() + flags.suffixLen() < 1) {
            throw new IllegalArgumentException("--prefix-repetition-prefix-len and --prefix-repetition-suffix-len"
                    + " are both 0: prompts would be empty; give one of them a length");
        }
    }

    @Override
    public void checkCount(int numRequests) {
        if (numRequests < flags.numPrefixes()) {
            throw new IllegalArgumentException("--num-prompts " + numRequests
                    + " must be >= --prefix-repetition-num-prefixes " + flags.numPrefixes()
                    + ": every prefix needs at least one prompt");
        }
    }

    @Override
    Drawn choose(int numRequests, long seed) {
        checkCount(numRequests);
        int perPrefix = numRequests / flags.numPrefixes();
        SplittableRandom random = new SplittableRandom(seed);
        List<SampledRequest> requests = new ArrayList<>(perPrefix * flags.numPrefixes());
        int mismatchTotal = 0;
        for (int p = 0; p < flags.numPrefixes(); p++) {
            TokenSequencePrompt prefix = exact(flags.prefixLen(), random);
            mismatchTotal += prefix.tokenCount() - flags.prefixLen();
            for (int s = 0; s < perPrefix; s++) {
                TokenSequencePrompt suffix = exact(flags.suffixLen(), random);
                mismatchTotal += suffix.tokenCount() - flags.suffixLen();
                int[] ids = Arrays.copyOf(prefix.ids(), prefix.tokenCount() + suffix.tokenCount());
                System.arraycopy(suffix.ids(), 0, ids, prefix.tokenCount(), suffix.tokenCount());
                requests.add(new SampledRequest(
                        Prompt.of(tokenizer.decode(ids), style), ids.length, flags.outputLen(), requests.size()));
            }
        }
        if (!disableShuffle) {
            Collections.shuffle(requests, new Random(seed));
            for (int i = 0; i < requests.size(); i++) {
                SampledRequest r = requests.get(i);
                requests.set(i, new SampledRequest(r.prompt(), r.promptLen(), r.expectedOutputLen(), i));
            }
        }
        String summary = NAME + ": " + flags.numPrefixes() + " prefixes of " + flags.prefixLen() + " tokens, "
                + perPrefix + " prompts each with a suffix of " + flags.suffixLen() + " tokens: " + requests.size()
                + " requests"
                + (disableShuffle ? " in prefix order (--disable-shuffle)" : ", shuffled with --seed")
                + (requests.size() < numRequests
                        ? "; --num-prompts " + numRequests
                                + " is not a multiple of --prefix-repetition-num-prefixes, so "
                                + (numRequests - requests.size()) + " fewer are sent, as vLLM does"
                        : "")
                + (mismatchTotal == 0
                        ? ""
                        : "; prompts have " + Math.abs(mismatchTotal) + " tokens "
                                + (mismatchTotal > 0 ? "more" : "fewer")
                                + " than asked after decoding and re-encoding");
        return new Drawn(requests, summary);
    }

    /** Random ids that decode and re-encode to {@code length} tokens (or as near as the retries get). */
    private TokenSequencePrompt exact(int length, SplittableRandom random) {
        if (length == 0) {
            return new TokenSequencePrompt("", new int[0]);
        }
        return TokenSequencePrompt.fit(
                tokenizer, TokenSequencePrompt.draw(length, allowedIds, random), length, allowedIds, random);
    }
}
