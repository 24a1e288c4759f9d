package io.tokenpulse.producer.dataset;

import io.tokenpulse.tokenizers.Tokenizer;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;

/**
 * Prompts for trace lines that give only an input length and Mooncake hash ids (one id per
 * {@value #BLOCK_TOKENS}-token block of the prompt, equal ids meaning equal blocks): the {@code trace}
 * and {@code agent-trace} datasets.
 *
 * <p>Block {@code h}'s token ids are drawn from the vocabulary without special tokens by a
 * generator seeded with {@code h} and {@code --seed} and fitted to {@value #BLOCK_TOKENS} tokens
 * ({@link TokenSequencePrompt}), so requests sharing a hash id share that block's tokens and a
 * server's prefix cache sees the trace's reuse. The prompt is its blocks' ids in order (tokens
 * beyond the blocks drawn for the request alone), cut to the input length minus the special tokens
 * the tokenizer adds, decoded and fitted once more as the {@code random} dataset fits its prompts;
 * only the tokens at a block boundary can re-encode differently.
 *
 * <p>Immutable; {@link #fit} may be called from any thread.
 */
final class HashBlockPrompts {

    static final int BLOCK_TOKENS = 512;

    /** What one prompt is built from: its length in tokens as the trace counts it, and its blocks. */
    record Line(int inputLength, long[] hashIds) {}

    private final Tokenizer tokenizer;
    private final int[] allowedIds;

    HashBlockPrompts(Tokenizer tokenizer) {
        this.tokenizer = tokenizer;
        this.allowedIds = TokenSequencePrompt.allowedIds(tokenizer);
    }

    /**
     * One prompt per line, in order. Request {@code i}'s own tokens come from a generator seeded by
     * {@code i} and a block's from its hash, so the prompts do not depend on the order they are built.
     */
    List<TokenSequencePrompt> fit(List<Line> lines, long seed) {
        // Each distinct block is fitted once per call.
        Map<Long, int[]> blockIds = new ConcurrentHashMap<>();
        // Fitting a prompt decodes and re-encodes it (~20 ms for 1 024 tokens): on every core, so that a
        // long trace does not wait minutes on one.
        return IntStream.range(0, lines.size())
                .parallel()
                .mapToObj(index -> {
                    Line line = lines.get(index);
                    int target = targetOf(line.inputLength());
                    SplittableRandom own = new SplittableRandom(mix(seed, -1L - index));
                    return TokenSequencePrompt.fit(
                            tokenizer, ids(line.hashIds(), target, seed, own, blockIds), target, allowedIds, own);
                })
                .toList();
    }

    /** The prompt's length in tokens before the special tokens the server adds. */
    int targetOf(int inputLength) {
        return Math.max(1, inputLength - tokenizer.numSpecialTokensToAdd());
    }

    /**
     * The request's token ids before the final fit: its blocks' ids in order, then its own, cut to
     * {@code length}. Each block is fitted to {@value #BLOCK_TOKENS} tokens on its own, so that it
     * keeps its length when the prompt is re-encoded (random ids re-encode to other counts).
     */
    private int[] ids(long[] hashIds, int length, long seed, SplittableRandom own, Map<Long, int[]> blockIds) {
        int[] ids = new int[length];
        int filled = 0;
        for (long hash : hashIds) {
            if (filled == length) {
                break;
            }
            int[] block = blockIds.computeIfAbsent(hash, h -> exact(BLOCK_TOKENS, new SplittableRandom(mix(seed, h))));
            int take = Math.min(block.length, length - filled);
            System.arraycopy(block, 0, ids, filled, take);
            filled += take;
        }
        if (filled < length) {
            System.arraycopy(exact(length - filled, own), 0, ids, filled, length - filled);
        }
        return ids;
    }

    private int[] exact(int length, SplittableRandom random) {
        return TokenSequencePrompt.fit(
                        tokenizer, TokenSequencePrompt.draw(length, allowedIds, random), length, allowedIds, random)
                .ids();
    }

    /** A generator seed for one block (or, for negative ids, one request's own tokens) under {@code --seed}. */
    private static long mix(long seed, long id) {
        return seed * 0x9E3779B97F4A7C15L + id;
    }
}
