package io.tokenpulse.producer.dataset;

/** What every multi-turn dataset checks before the run. */
final class SessionDatasets {

    private SessionDatasets() {}

    /**
     * A session's history is messages with roles: only the message backends can carry it (chat
     * messages, the Responses API's input items, the Messages API's messages); a completions, audio or
     * pooling request has one prompt and no conversation.
     */
    static void requireChat(String dataset, PromptStyle style) {
        if (style != PromptStyle.CHAT) {
            throw new IllegalArgumentException("--dataset-name " + dataset
                    + " sends each turn with the conversation so far as messages; use --backend openai-chat"
                    + " (/v1/chat/completions), openai-responses (/v1/responses) or anthropic-messages"
                    + " (/v1/messages)");
        }
    }
}
