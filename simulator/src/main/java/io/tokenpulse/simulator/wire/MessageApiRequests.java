package io.tokenpulse.simulator.wire;

import com.fasterxml.jackson.databind.JsonNode;
import io.tokenpulse.simulator.engine.PromptCounter;
import io.tokenpulse.tokenizers.ChatMessage;
import java.util.ArrayList;
import java.util.List;

/**
 * The requests of the two message-based APIs the simulator speaks beside vLLM's: OpenAI's Responses
 * API and Anthropic's Messages API, read into a {@link GenerationRequest}. The prompt is counted as
 * the chat template renders the messages, as vLLM serves both APIs through its chat path.
 */
public final class MessageApiRequests {

    private MessageApiRequests() {}

    /**
     * {@code POST /v1/responses}: {@code input} (a string, or a list of messages whose content is a
     * string or {@code input_text} parts), {@code instructions} (a system message),
     * {@code max_output_tokens}, {@code stream}; {@code ignore_eos} as vLLM's extension.
     */
    public static GenerationRequest responses(byte[] body, int defaultMaxTokens, PromptCounter counter)
            throws BadRequestException {
        JsonNode root = GenerationRequest.object(body);
        List<ChatMessage> messages = new ArrayList<>();
        JsonNode instructions = root.get("instructions");
        if (instructions != null && instructions.isTextual()) {
            messages.add(new ChatMessage("system", instructions.asText()));
        }
        JsonNode input = root.get("input");
        if (input != null && input.isTextual()) {
            messages.add(new ChatMessage("user", input.asText()));
        } else if (input != null && input.isArray() && !input.isEmpty()) {
            for (JsonNode item : input) {
                messages.add(message(item, "input"));
            }
        } else {
            throw new BadRequestException("'input' must be a string or a non-empty list of messages");
        }
        JsonNode max = root.get("max_output_tokens");
        boolean given = max != null && !max.isNull();
        int maxTokens = given ? GenerationRequest.positiveInt(max, "max_output_tokens") : defaultMaxTokens;
        return request(Endpoint.RESPONSES, root, counter.chatIds(messages), maxTokens, given);
    }

    /**
     * {@code POST /v1/messages}: {@code messages} (content a string or {@code text} blocks),
     * {@code system} (a string or {@code text} blocks), {@code max_tokens} (required, as Anthropic
     * requires it), {@code stream}.
     */
    public static GenerationRequest messages(byte[] body, PromptCounter counter) throws BadRequestException {
        JsonNode root = GenerationRequest.object(body);
        JsonNode max = root.get("max_tokens");
        if (max == null || max.isNull()) {
            throw new BadRequestException("max_tokens: Field required");
        }
        int maxTokens = GenerationRequest.positiveInt(max, "max_tokens");
        List<ChatMessage> messages = new ArrayList<>();
        JsonNode system = root.get("system");
        if (system != null && !system.isNull()) {
            messages.add(new ChatMessage("system", text(system)));
        }
        JsonNode list = root.get("messages");
        if (list == null || !list.isArray() || list.isEmpty()) {
            throw new BadRequestException("messages: must be a non-empty list");
        }
        for (JsonNode item : list) {
            messages.add(message(item, "messages"));
        }
        return request(Endpoint.MESSAGES, root, counter.chatIds(messages), maxTokens, true);
    }

    private static GenerationRequest request(
            Endpoint endpoint, JsonNode root, int[] promptIds, int maxTokens, boolean maxTokensGiven) {
        JsonNode model = root.get("model");
        return new GenerationRequest(
                endpoint,
                model == null || model.isNull() ? null : model.asText(),
                root.path("stream").asBoolean(false),
                false, // the usage comes in the stream's own events, never as an extra one
                false,
                promptIds.length,
                promptIds,
                maxTokens,
                maxTokensGiven,
                0,
                root.path("ignore_eos").asBoolean(false));
    }

    private static ChatMessage message(JsonNode item, String field) throws BadRequestException {
        String role = item.path("role").asText("");
        if (role.isBlank()) {
            throw new BadRequestException("every item of '" + field + "' needs a 'role'");
        }
        return new ChatMessage(role, text(item.path("content")));
    }

    /** A string, or the text of a list of parts ({@code text}, {@code input_text}, {@code output_text}). */
    private static String text(JsonNode content) {
        if (content.isTextual()) {
            return content.asText();
        }
        StringBuilder text = new StringBuilder();
        for (JsonNode part : content) {
            text.append(part.path("text").asText(""));
        }
        return text.toString();
    }
}
