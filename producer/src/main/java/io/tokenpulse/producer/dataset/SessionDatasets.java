package io.tokenpulse.producer.dataset;

/** What every multi-turn dataset checks before the run. */
final class SessionDatasets {

    private SessionDatasets() {}

    /** A session's history is chat messages: only a chat backend can send it. */
    static void requireChat(String dataset, PromptStyle style) {
        if (style != PromptStyle.CHAT) {
            throw new IllegalArgumentException("--dataset-name " + dataset
                    + " sends each turn with the conversation so far as chat messages; use --backend openai-chat"
                    + " (--endpoint /v1/chat/completions)");
        }
    }
}
