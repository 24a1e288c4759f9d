package io.tokenpulse.producer.backend;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.util.List;

/**
 * The OpenAI Responses API ({@code POST /v1/responses}, also served by vLLM): {@code model},
 * {@code input} (the prompt as one string; with the dataset's images one user message of
 * {@code input_text} and {@code input_image} parts; a session's turn as the conversation so far, one
 * input message of string content per message with its role, the API's stateless multi-turn form),
 * {@code temperature} (0, greedy, unless
 * {@code --temperature}), {@code max_output_tokens}, {@code stream: true}, {@code top_p} when given,
 * then {@code --extra-body}. The API key goes as {@code Authorization: Bearer}. Events are read by
 * {@link ResponsesEventReader}; a stream without {@code response.completed} fails.
 *
 * <p>The API has no field for the other sampling flags, so they are refused rather than dropped
 * ({@code --extra-body} reaches a server that takes more).
 */
final class OpenAiResponsesBackend extends TypedEventBackend {

    static final String NAME = "openai-responses";

    OpenAiResponsesBackend() {
        super(
                NAME,
                "responses",
                new ResponsesEventReader(),
                ResponsesEventReader.CLOSING_EVENT,
                "--temperature",
                "--top-p",
                "--extra-body");
    }

    @Override
    void writeFields(JsonGenerator json, BackendSettings.Sampling sampling, PromptRequest request) throws IOException {
        writeInput(json, request);
        json.writeNumberField("temperature", sampling.temperatureOrGreedy());
        json.writeNumberField("max_output_tokens", request.maxTokens());
        json.writeBooleanField("stream", true);
        if (sampling.topP() != null) {
            json.writeNumberField("top_p", sampling.topP());
        }
    }

    @Override
    List<HttpCall.Header> headers(BackendSettings settings, PromptRequest request) {
        return RequestParts.headers(settings, request, "application/json", true);
    }

    /**
     * A session's conversation as input messages, else the prompt as a string, or with the dataset's
     * images one user message of input_text and input_image parts.
     */
    private static void writeInput(JsonGenerator json, PromptRequest request) throws IOException {
        if (!request.messages().isEmpty()) {
            // every message with its role, the system prompt too (vLLM renders a system input message as it
            // renders instructions): OpenAI's conversation-state guide sends the history so, each request
            // standing alone, without previous_response_id's server state
            MessageList.write(json, "input", request.messages());
            return;
        }
        if (request.imageUrls().isEmpty()) {
            json.writeStringField("input", request.prompt());
            return;
        }
        json.writeArrayFieldStart("input");
        json.writeStartObject();
        json.writeStringField("role", "user");
        ContentParts.write(
                json, request, "input_text", "input_image", (part, url) -> part.writeStringField("image_url", url));
        json.writeEndObject();
        json.writeEndArray();
    }
}
