package io.tokenpulse.producer.backend;

import com.fasterxml.jackson.core.JsonGenerator;
import io.tokenpulse.tokenizers.ChatMessage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The Anthropic Messages API ({@code POST /v1/messages}, also served by vLLM): {@code model},
 * {@code max_tokens}, {@code messages} (the prompt as one user message; with the dataset's images its
 * content is a text block and image blocks; a session's turn as the conversation so far, user and
 * assistant messages alternating, its system prompt in the top-level {@code system} field, as the API
 * has no system role), {@code temperature} (0,
 * greedy, unless {@code --temperature}), {@code stream: true}, {@code top_p} and {@code top_k} when
 * given, then {@code --extra-body}. Headers: {@code anthropic-version: 2023-06-01}, and the API key
 * as {@code x-api-key} (Anthropic's header, not a bearer token); {@code --header} overrides either.
 * Events are read by {@link MessagesEventReader}; a stream without {@code message_stop} fails.
 *
 * <p>The API has no field for the other sampling flags, so they are refused rather than dropped
 * ({@code --extra-body} reaches a server that takes more).
 */
final class AnthropicMessagesBackend extends TypedEventBackend {

    static final String NAME = "anthropic-messages";
    /** The API version every request names; 2023-06-01 is the one Anthropic's docs and SDKs send. */
    static final String API_VERSION = "2023-06-01";

    AnthropicMessagesBackend() {
        super(
                NAME,
                "messages",
                new MessagesEventReader(),
                MessagesEventReader.CLOSING_EVENT,
                "--temperature",
                "--top-p",
                "--top-k",
                "--extra-body");
    }

    @Override
    void writeFields(JsonGenerator json, BackendSettings.Sampling sampling, PromptRequest request) throws IOException {
        json.writeNumberField("max_tokens", request.maxTokens());
        if (request.messages().isEmpty()) {
            json.writeArrayFieldStart("messages");
            json.writeStartObject();
            json.writeStringField("role", "user");
            writeContent(json, request);
            json.writeEndObject();
            json.writeEndArray();
        } else {
            writeConversation(json, request);
        }
        json.writeNumberField("temperature", sampling.temperatureOrGreedy());
        json.writeBooleanField("stream", true);
        if (sampling.topP() != null) {
            json.writeNumberField("top_p", sampling.topP());
        }
        // -1 is vLLM's "off"; the API's is leaving the field out
        if (sampling.topK() != null && sampling.topK() >= 0) {
            json.writeNumberField("top_k", sampling.topK());
        }
    }

    @Override
    List<HttpCall.Header> headers(BackendSettings settings, PromptRequest request) {
        List<HttpCall.Header> own = new ArrayList<>();
        own.add(new HttpCall.Header("anthropic-version", API_VERSION));
        if (RequestParts.hasApiKey(settings)) {
            own.add(new HttpCall.Header("x-api-key", settings.apiKey()));
        }
        return RequestParts.headers(settings, request, "application/json", own);
    }

    /**
     * A session's turn: its system messages joined into {@code system}, the others in order as
     * {@code messages} of string content (a session alternates user and assistant by construction).
     */
    private static void writeConversation(JsonGenerator json, PromptRequest request) throws IOException {
        String system = request.messages().stream()
                .filter(m -> m.role().equals("system"))
                .map(ChatMessage::content)
                .collect(Collectors.joining("\n"));
        if (!system.isEmpty()) {
            json.writeStringField("system", system);
        }
        MessageList.write(
                json,
                "messages",
                request.messages().stream()
                        .filter(m -> !m.role().equals("system"))
                        .toList());
    }

    /** The prompt as a string, or with the dataset's images a text block and image blocks. */
    private static void writeContent(JsonGenerator json, PromptRequest request) throws IOException {
        if (request.imageUrls().isEmpty()) {
            json.writeStringField("content", request.prompt());
        } else {
            ContentParts.write(json, request, "text", "image", AnthropicMessagesBackend::writeImageSource);
        }
    }

    /** An image block's {@code source}: a {@code data:} URL as a base64 source, any other as a URL source. */
    private static void writeImageSource(JsonGenerator json, String url) throws IOException {
        json.writeObjectFieldStart("source");
        int comma = url.indexOf(',');
        if (url.startsWith("data:") && comma > 0 && url.substring(0, comma).endsWith(";base64")) {
            json.writeStringField("type", "base64");
            json.writeStringField("media_type", url.substring("data:".length(), comma - ";base64".length()));
            json.writeStringField("data", url.substring(comma + 1));
        } else {
            json.writeStringField("type", "url");
            json.writeStringField("url", url);
        }
        json.writeEndObject();
    }
}
