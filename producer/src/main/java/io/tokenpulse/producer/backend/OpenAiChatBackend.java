package io.tokenpulse.producer.backend;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;

/**
 * OpenAI Chat Completions ({@code /v1/chat/completions}) as vLLM's
 * {@code async_request_openai_chat_completions} speaks it: the prompt as one user message of
 * text content (followed by the dataset's images as {@code image_url} parts), or a session's whole
 * conversation as messages of string content, {@code max_completion_tokens},
 * text from {@code delta.content}.
 */
final class OpenAiChatBackend extends OpenAiBackend {

    OpenAiChatBackend() {
        super("openai-chat", "chat/completions", EventReader.TextField.DELTA_CONTENT);
    }

    @Override
    public void check(BackendSettings settings) {
        super.check(settings);
        if (settings.sampling().logprobs() != null) {
            // vLLM silently drops it for chat; saying so beats benchmarking something else.
            throw new IllegalArgumentException("--logprobs is not supported by backend openai-chat; remove --logprobs");
        }
    }

    @Override
    void writeInput(JsonGenerator json, BackendSettings settings, PromptRequest request) throws IOException {
        if (!request.messages().isEmpty()) {
            // a session's turn: every message with its role and text content, as a chat client sends its history
            MessageList.write(json, "messages", request.messages());
        } else {
            writeUserMessage(json, request);
        }
        json.writeNumberField("temperature", settings.sampling().temperatureOrGreedy());
        json.writeNumberField("max_completion_tokens", request.maxTokens());
    }

    private static void writeUserMessage(JsonGenerator json, PromptRequest request) throws IOException {
        json.writeArrayFieldStart("messages");
        json.writeStartObject();
        json.writeStringField("role", "user");
        ContentParts.write(json, request, "text", "image_url", (part, url) -> {
            part.writeObjectFieldStart("image_url");
            part.writeStringField("url", url);
            part.writeEndObject();
        });
        json.writeEndObject();
        json.writeEndArray();
    }

    @Override
    boolean anyEventMarksLast() {
        return true;
    }
}
