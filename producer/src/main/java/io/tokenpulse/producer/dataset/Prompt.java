package io.tokenpulse.producer.dataset;

import io.tokenpulse.tokenizers.ChatMessage;
import java.util.List;
import java.util.Objects;

/** What a request sends: plain text for completion backends, messages for chat backends. */
public sealed interface Prompt {

    /** Prompt text, sent as is ({@code prompt} of a completions request). */
    record Text(String text) implements Prompt {
        public Text {
            Objects.requireNonNull(text, "text");
        }
    }

    /**
     * Chat messages ({@code messages} of a chat completions request); the server applies its template.
     *
     * @param imageUrls images sent after the text of the last message, as OpenAI {@code image_url}
     *     content (an {@code http(s):} or {@code data:} URL each); only chat backends take images
     */
    record Chat(List<ChatMessage> messages, List<String> imageUrls) implements Prompt {
        public Chat {
            messages = List.copyOf(messages);
            imageUrls = List.copyOf(imageUrls);
            if (messages.isEmpty()) {
                throw new IllegalArgumentException("a chat prompt needs at least one message");
            }
        }

        /** Messages without images. */
        public Chat(List<ChatMessage> messages) {
            this(messages, List.of());
        }
    }

    /**
     * A dataset's audio clip for {@code openai-audio}, which sends the WAV and not the text (vLLM's
     * ASR prompt: empty, or Whisper's decoder prefix).
     *
     * @param wav a WAV file's bytes; do not modify
     * @param seconds the clip's length (frames / sampling rate), vLLM's {@code input_audio_duration}
     */
    record Audio(String text, byte[] wav, double seconds) implements Prompt {
        public Audio {
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(wav, "wav");
            if (!(seconds >= 0) || Double.isInfinite(seconds)) {
                throw new IllegalArgumentException("a clip's length must be finite and >= 0, got " + seconds);
            }
        }
    }

    /**
     * Texts sent together in one request, vLLM's list-valued prompt: the {@code random-rerank}
     * dataset's query, then its documents, or a batch of {@code random} prompts. Only the pooling
     * backends take it (a rerank needs the query and at least one document).
     */
    record Texts(List<String> texts) implements Prompt {

        /** What a list prompt's request asks to generate: nothing (vLLM writes 0; a sample's least is 1). */
        static final int OUTPUT_LEN = 1;

        public Texts {
            texts = List.copyOf(texts);
            if (texts.isEmpty()) {
                throw new IllegalArgumentException("a list prompt needs at least one text");
            }
        }
    }

    /** A prompt in the form the backend sends: the text itself, or the text as one user message. */
    static Prompt of(String text, PromptStyle style) {
        return style == PromptStyle.CHAT ? new Chat(List.of(ChatMessage.user(text))) : new Text(text);
    }
}
