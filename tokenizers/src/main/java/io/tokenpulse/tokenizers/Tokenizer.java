package io.tokenpulse.tokenizers;

import java.util.List;
import java.util.Set;

/**
 * A text tokenizer as the benchmark needs it: counting prompt and output tokens, drawing token ids
 * for synthetic prompts, and rendering chat templates.
 *
 * <p>Implementations are immutable and safe to share between threads. Obtain one from
 * {@link TokenizerLoader}.
 */
public interface Tokenizer {

    /** What the tokenizer was loaded from (path or model id), as the user named it. */
    String id();

    /** Token ids of {@code text}, without the special tokens a model adds around a sequence. */
    int[] encode(String text);

    /** Text of {@code ids}; special tokens are kept, invalid UTF-8 becomes U+FFFD (as Hugging Face does). */
    String decode(int[] ids);

    /**
     * Size of the base vocabulary, without added tokens: Hugging Face's {@code tokenizer.vocab_size}.
     * Ids {@code 0 .. vocabSize()-1} are valid input to {@link #decode}.
     */
    int vocabSize();

    /** Ids of the special tokens (BOS, EOS, pad, chat markers): Hugging Face's {@code all_special_ids}. */
    Set<Integer> specialTokenIds();

    /**
     * How many special tokens encoding adds to one sequence (a BOS, for example): Hugging Face's
     * {@code num_special_tokens_to_add()}. vLLM subtracts it from the random dataset's input length
     * and counts it in the sonnet dataset's prompt length.
     */
    int numSpecialTokensToAdd();

    /** Number of tokens in {@code text}, without special tokens. */
    default int countTokens(String text) {
        return encode(text).length;
    }

    /** Whether {@link #applyChatTemplate} can render messages. */
    boolean hasChatTemplate();

    /**
     * The prompt text the model's chat template makes of {@code messages} (Hugging Face's
     * {@code apply_chat_template(messages, add_generation_prompt=..., tokenize=False)}).
     *
     * @throws IllegalStateException when the tokenizer has no chat template, or the template fails
     */
    String applyChatTemplate(List<ChatMessage> messages, boolean addGenerationPrompt);
}
