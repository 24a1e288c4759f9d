package io.tokenpulse.simulator.engine;

import io.tokenpulse.tokenizers.ChatMessage;
import io.tokenpulse.tokenizers.Tokenizer;
import java.util.List;

/**
 * Counts prompt tokens as the server sees them: with the load generator's own tokenizer (and its
 * chat template for chat requests, as vLLM renders messages before tokenizing), or, when no
 * tokenizer is given, by whitespace-separated words.
 */
public interface PromptCounter {

    /** Words separated by whitespace: a stand-in when no tokenizer is configured. */
    PromptCounter WHITESPACE = new PromptCounter() {
        @Override
        public int countText(String text) {
            String trimmed = text.strip();
            return trimmed.isEmpty() ? 0 : trimmed.split("\\s+").length;
        }

        @Override
        public int countChat(List<ChatMessage> messages) {
            return messages.stream().mapToInt(m -> countText(m.content())).sum();
        }

        @Override
        public String outputWord() {
            return null;
        }
    };

    /** Words the simulator may spell every output token with; the first one the tokenizer counts as one token wins. */
    List<String> OUTPUT_WORD_CANDIDATES = List.of(" the", " a", " and", " of", " to", " is");

    int countText(String text);

    int countChat(List<ChatMessage> messages);

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
            // and a rendered chat template without them, as vLLM does.
            @Override
            public int countText(String text) {
                return tokenizer.countTokens(text) + tokenizer.numSpecialTokensToAdd();
            }

            @Override
            public int countChat(List<ChatMessage> messages) {
                if (tokenizer.hasChatTemplate()) {
                    return tokenizer.countTokens(tokenizer.applyChatTemplate(messages, true));
                }
                return messages.stream()
                        .mapToInt(m -> tokenizer.countTokens(m.content()))
                        .sum();
            }
        };
    }
}
