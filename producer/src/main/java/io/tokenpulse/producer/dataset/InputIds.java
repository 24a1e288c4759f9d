package io.tokenpulse.producer.dataset;

import io.tokenpulse.tokenizers.Tokenizer;

/** Token counts as vLLM takes them from a dataset's text. */
final class InputIds {

    private InputIds() {}

    /**
     * {@code len(tokenizer(text).input_ids)}: the text's tokens plus the special tokens the
     * tokenizer adds to a sequence (a BOS, for example), which vLLM counts in a prompt's length.
     */
    static int count(Tokenizer tokenizer, String text) {
        return tokenizer.countTokens(text) + tokenizer.numSpecialTokensToAdd();
    }
}
