package io.tokenpulse.producer.backend;

import io.tokenpulse.producer.dataset.Prompt;
import io.tokenpulse.tokenizers.ChatMessage;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One benchmark request's own values.
 *
 * @param requestId sent as {@code x-request-id}, so server logs can be matched to records
 * @param prompt the prompt text as the dataset produced it
 * @param maxTokens output tokens asked for ({@code max_tokens} / {@code max_completion_tokens})
 * @param imageUrls images to send with the prompt ({@code http(s):} or {@code data:} URLs); only the
 *     message backends ({@code openai-chat}, as vLLM's client does, {@code openai-responses},
 *     {@code anthropic-messages}) send them
 * @param model the model this request names instead of the run's ({@code --lora-modules}: an
 *     adapter), or null for the run's
 * @param audioWav the dataset's WAV file for {@code openai-audio}, or null for its synthetic tone
 * @param messages the whole conversation for a chat backend (a session's turn: system prompt, earlier
 *     turns and answers, this turn), or empty to send {@code prompt} as one user message
 * @param texts the dataset's list prompt ({@code random-rerank}: the query, then the documents), sent
 *     as such by the pooling backends; empty for one text. {@code prompt} is then the texts joined by
 *     newlines
 */
public record PromptRequest(
        String requestId,
        String prompt,
        int maxTokens,
        List<String> imageUrls,
        String model,
        byte[] audioWav,
        List<ChatMessage> messages,
        List<String> texts) {

    public PromptRequest {
        if (requestId == null || requestId.isBlank()) {
            throw new IllegalArgumentException("requestId must not be blank");
        }
        if (prompt == null) {
            throw new IllegalArgumentException("prompt must not be null (request " + requestId + ")");
        }
        if (maxTokens < 1) {
            throw new IllegalArgumentException(
                    "output length must be >= 1, got " + maxTokens + " (request " + requestId + ")");
        }
        imageUrls = List.copyOf(imageUrls);
        messages = List.copyOf(messages);
        texts = List.copyOf(texts);
        if (model != null && model.isBlank()) {
            throw new IllegalArgumentException("a request's model must not be blank (request " + requestId + ")");
        }
    }

    /** A single prompt (not a conversation). */
    public PromptRequest(
            String requestId, String prompt, int maxTokens, List<String> imageUrls, String model, byte[] audioWav) {
        this(requestId, prompt, maxTokens, imageUrls, model, audioWav, List.of(), List.of());
    }

    /** A prompt with images, naming the run's model. */
    public PromptRequest(String requestId, String prompt, int maxTokens, List<String> imageUrls) {
        this(requestId, prompt, maxTokens, imageUrls, null, null);
    }

    /** This request naming {@code newModel} (null: the run's model). */
    public PromptRequest withModel(String newModel) {
        return new PromptRequest(requestId, prompt, maxTokens, imageUrls, newModel, audioWav, messages, texts);
    }

    /** The model to send: this request's own, else {@code runModel}. */
    String modelOr(String runModel) {
        return model != null ? model : runModel;
    }

    /** A text-only prompt. */
    public PromptRequest(String requestId, String prompt, int maxTokens) {
        this(requestId, prompt, maxTokens, List.of());
    }

    /** What the backend sends for a dataset prompt: chat prompts are one user message (see {@code PromptStyle}), maybe with images; audio prompts carry their WAV; list prompts their texts. */
    public static PromptRequest of(String requestId, Prompt prompt, int maxTokens) {
        if (prompt instanceof Prompt.Text text) {
            return new PromptRequest(requestId, text.text(), maxTokens);
        }
        if (prompt instanceof Prompt.Audio audio) {
            return new PromptRequest(requestId, audio.text(), maxTokens, List.of(), null, audio.wav());
        }
        if (prompt instanceof Prompt.Texts list) {
            return new PromptRequest(
                    requestId,
                    String.join("\n", list.texts()),
                    maxTokens,
                    List.of(),
                    null,
                    null,
                    List.of(),
                    list.texts());
        }
        Prompt.Chat chat = (Prompt.Chat) prompt;
        String text = chat.messages().stream().map(m -> m.content()).collect(Collectors.joining("\n"));
        // a conversation (more than one message) goes as its messages; one user message as before
        boolean conversation =
                chat.messages().size() > 1 || !chat.messages().get(0).role().equals("user");
        return new PromptRequest(
                requestId,
                text,
                maxTokens,
                chat.imageUrls(),
                null,
                null,
                conversation ? chat.messages() : List.of(),
                List.of());
    }
}
