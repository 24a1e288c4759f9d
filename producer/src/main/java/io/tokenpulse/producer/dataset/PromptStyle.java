package io.tokenpulse.producer.dataset;

/**
 * Whether the backend takes text or chat messages, which decides the prompt form (vLLM: the
 * {@code openai-chat} backend gets raw messages, every other backend gets text, for {@code sonnet}
 * already formatted with the chat template).
 */
public enum PromptStyle {
    COMPLETION,
    CHAT,
    /** {@code openai-audio}: text prompts as for completions (not sent), and the only style that takes audio rows. */
    AUDIO
}
