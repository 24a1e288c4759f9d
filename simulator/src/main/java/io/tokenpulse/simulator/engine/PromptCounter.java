package io.tokenpulse.simulator.engine;

import io.tokenpulse.tokenizers.ChatMessage;
import io.tokenpulse.tokenizers.Tokenizer;
import java.util.Arrays;
import java.util.List;

/**
 * Tokenizes prompts as the server sees them: with the load generator's own tokenizer (and its chat
 * template for chat requests, as vLLM renders messages before tokenizing), or, when no tokenizer is
 * given, as whitespace-separated words (each word's id its hash code). The ids key the prefix cache;
 * their number is the prompt's length.
 */
public interface PromptCounter {

    /** Words separated by whitespace: a stand-in when no tokenizer is configured. */
    PromptCounter WHITESPACE = new PromptCounter() {
        @Override
        public int[] textIds(String text) {
            String trimmed = text.strip();
            return trimmed.isEmpty()
                    ? new int[0]
                    : Arrays.stream(trimmed.split("\\s+"))
                            .mapToInt(String::hashCode)
                            .toArray();
        }

        @Override
        public int[] chatIds(List<ChatMessage> messages) {
            return messages.stream()
                    .flatMapToInt(m -> Arrays.stream(textIds(m.content())))
                    .toArray();
        }

        @Override
        public String outputWord() {
            return null;
        }
    };

    /** Words the simulator may spell every output token with; the first one the tokenizer counts as one token wins. */
    List<String> OUTPUT_WORD_CANDIDATES = List.of(" the", " a", " and", " of", " to", " is");

    /** The token ids of a completions prompt, with the special tokens the server adds. */
    int[] textIds(String text);

    /** The token ids of chat messages, rendered by the chat template when the tokenizer has one. */
    int[] chatIds(List<ChatMessage> messages);

    default int countText(String text) {
        return textIds(text).length;
    }

    /**
     * A word that this tokenizer counts as exactly one token however often it is repeated, so that
     * generated text re-tokenizes to the number of tokens sent (clients of TGI, TensorRT-LLM and
     * DeepSpeed-MII count output tokens that way); null to spell tokens {@code "tok<i> "}.
     */
    String outputWord();

    static PromptCounter of(Tokenizer tokenizer) {
        String word = OUTPUT_WORD_CANDIDATES.stream()
                .filter(w -> tokenizer.countTokens(w) == 1
                        && tokenizer.countTokens(w.repeat(2)) == 2
                        && tokenizer.countTokens(w.repeat(17)) == 17)
                .findFirst()
                .orElse(null);
        return new PromptCounter() {
            @Override
            public String outputWord() {
                return word;
            }

            // A server tokenizes a completions prompt with its special tokens (OPT's and Llama's BOS),
            // and a rendered chat template without them, as vLLM does. The special tokens are the same
            // for every prompt: -1 stands for them.
            @Override
            public int[] textIds(String text) {
                int[] ids = tokenizer.encode(text);
                int special = tokenizer.numSpecialTokensToAdd();
                int[] withSpecial = new int[special + ids.length];
                Arrays.fill(withSpecial, 0, special, -1);
                System.arraycopy(ids, 0, withSpecial, special, ids.length);
                return withSpecial;
            }

            @Override
            public int[] chatIds(List<ChatMessage> messages) {
                if (tokenizer.hasChatTemplate()) {
                    return tokenizer.encode(tokenizer.applyChatTemplate(messages, true));
                }
                return messages.stream()
                        .flatMapToInt(m -> Arrays.stream(tokenizer.encode(m.content())))
                        .toArray();
            }
        };
    }
}
