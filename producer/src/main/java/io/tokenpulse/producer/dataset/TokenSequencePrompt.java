package io.tokenpulse.producer.dataset;

import io.tokenpulse.tokenizers.Tokenizer;
import java.util.Arrays;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * Turns token ids into prompt text that re-encodes to a wanted number of tokens, as vLLM's
 * {@code gen_prompt_decode_to_target_len}: decoding then encoding does not keep the count (GPT-2:
 * [6880, 6881] "Ġcalls"+"here" re-encodes as "Ġcall"+"sh"+"ere"), so the sequence is cut when long,
 * topped up with random tokens when short, and tried again, up to {@value #MAX_RETRIES} times.
 *
 * @param text the prompt
 * @param ids {@code tokenizer.encode(text)}, whose length differs from the target only when retries ran out
 */
record TokenSequencePrompt(String text, int[] ids) {

    // vLLM stops after 10 and logs the mismatch; with Qwen3 that left 1 prompt in 1000 (1024 tokens,
    // seed 0) one token long, while 50 made all 2000 tried exact. Only misfits pay for the retries.
    static final int MAX_RETRIES = 50;

    /** The ids a synthetic prompt is made of: the base vocabulary without special tokens. */
    static int[] allowedIds(Tokenizer tokenizer) {
        Set<Integer> special = tokenizer.specialTokenIds();
        return IntStream.range(0, tokenizer.vocabSize())
                .filter(id -> !special.contains(id))
                .toArray();
    }

    /** {@code count} ids drawn uniformly from {@code allowedIds}. */
    static int[] draw(int count, int[] allowedIds, SplittableRandom random) {
        int[] ids = new int[count];
        for (int i = 0; i < count; i++) {
            ids[i] = allowedIds[random.nextInt(allowedIds.length)];
        }
        return ids;
    }

    /**
     * @param allowedIds the ids to top up from (the vocabulary without special tokens)
     * @param random consumed only when a top-up is needed
     */
    static TokenSequencePrompt fit(
            Tokenizer tokenizer, int[] ids, int targetLen, int[] allowedIds, SplittableRandom random) {
        int[] sequence = ids;
        String text;
        for (int retriesLeft = MAX_RETRIES; ; retriesLeft--) {
            text = tokenizer.decode(sequence);
            sequence = tokenizer.encode(text);
            if (retriesLeft == 0 || sequence.length == targetLen) {
                break;
            }
            if (sequence.length > targetLen) {
                sequence = Arrays.copyOf(sequence, targetLen);
            } else {
                // vLLM tops up from the whole vocabulary; drawing from allowedIds keeps special tokens out.
                int have = sequence.length;
                sequence = Arrays.copyOf(sequence, targetLen);
                System.arraycopy(draw(targetLen - have, allowedIds, random), 0, sequence, have, targetLen - have);
            }
        }
        return new TokenSequencePrompt(text, sequence);
    }

    /** The prompt's length in tokens. */
    int tokenCount() {
        return ids.length;
    }
}
