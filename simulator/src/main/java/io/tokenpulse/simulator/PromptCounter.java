package io.tokenpulse.simulator;

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
    };

    int countText(String text);

    int countChat(List<ChatMessage> messages);

    static PromptCounter of(Tokenizer tokenizer) {
        return new PromptCounter() {
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
                return messages.stream().mapToInt(m -> tokenizer.countTokens(m.content())).sum();
            }
        };
    }
}
