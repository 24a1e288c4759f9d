package io.tokenpulse.producer.dataset;

import io.tokenpulse.tokenizers.ChatMessage;
import io.tokenpulse.tokenizers.Tokenizer;
import java.util.List;

/**
 * The length of a chat prompt as vLLM's server counts it: the messages rendered by the chat template
 * with the generation prompt, tokenized without adding special tokens again (the template writes
 * them). A tokenizer without a template counts each message's text as {@link InputIds} does.
 */
public final class ChatPromptLength {

    private ChatPromptLength() {}

    /** Tokens of {@code messages} as the server will see them. */
    public static int of(Tokenizer tokenizer, List<ChatMessage> messages) {
        if (tokenizer.hasChatTemplate()) {
            return tokenizer.countTokens(tokenizer.applyChatTemplate(messages, true));
        }
        return messages.stream()
                .mapToInt(m -> InputIds.count(tokenizer, m.content()))
                .sum();
    }
}
