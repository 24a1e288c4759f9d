package io.tokenpulse.simulator;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.tokenpulse.tokenizers.ChatMessage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The parts of an OpenAI completions or chat request the simulator acts on.
 *
 * @param model          the request's "model", null when it gave none
 * @param promptTokens   prompt length by the server's {@link PromptCounter}, or the length of a token-id prompt
 * @param maxTokens      max_completion_tokens, else max_tokens, else the server's default
 * @param maxTokensGiven whether the request set maxTokens itself
 * @param ignoreEos      true: generate maxTokens; false: stop at a simulated EOS drawn by {@link OutputLengths}
 */
record GenerationRequest(Endpoint endpoint, String model, boolean stream, boolean includeUsage, int promptTokens,
                         int maxTokens, boolean maxTokensGiven, boolean ignoreEos) {

    private static final ObjectMapper JSON = new ObjectMapper();

    static GenerationRequest parse(Endpoint endpoint, byte[] body, int defaultMaxTokens, PromptCounter counter)
            throws BadRequestException {
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (JacksonException e) {
            throw new BadRequestException("request body is not valid JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new UncheckedIOException("reading a request body from memory failed", e);
        }
        if (root == null || !root.isObject()) {
            throw new BadRequestException("request body must be a JSON object");
        }
        int promptTokens = endpoint == Endpoint.CHAT ? chatPromptTokens(root, counter) : completionPromptTokens(root, counter);
        int maxTokens = maxTokens(root, defaultMaxTokens);
        boolean maxTokensGiven = root.hasNonNull("max_completion_tokens") || root.hasNonNull("max_tokens");
        boolean stream = root.path("stream").asBoolean(false);
        boolean includeUsage = root.path("stream_options").path("include_usage").asBoolean(false);
        JsonNode model = root.get("model");
        return new GenerationRequest(endpoint, model == null || model.isNull() ? null : model.asText(), stream,
                includeUsage, promptTokens, maxTokens, maxTokensGiven, root.path("ignore_eos").asBoolean(false));
    }

    private static int maxTokens(JsonNode root, int defaultMaxTokens) throws BadRequestException {
        JsonNode node = root.hasNonNull("max_completion_tokens") ? root.get("max_completion_tokens") : root.get("max_tokens");
        if (node == null || node.isNull()) {
            return defaultMaxTokens;
        }
        if (!node.canConvertToInt() || !node.isIntegralNumber() || node.intValue() < 1) {
            throw new BadRequestException("max_tokens must be an integer >= 1, got " + node);
        }
        return node.intValue();
    }

    private static int completionPromptTokens(JsonNode root, PromptCounter counter) throws BadRequestException {
        JsonNode prompt = root.get("prompt");
        if (prompt == null || prompt.isNull()) {
            throw new BadRequestException("'prompt' is required");
        }
        if (prompt.isTextual()) {
            return counter.countText(prompt.asText());
        }
        if (prompt.isArray() && !prompt.isEmpty() && prompt.get(0).isIntegralNumber()) {
            return prompt.size();
        }
        throw new BadRequestException("'prompt' must be a string or a list of token ids (batched prompts are not supported)");
    }

    private static int chatPromptTokens(JsonNode root, PromptCounter counter) throws BadRequestException {
        JsonNode messages = root.get("messages");
        if (messages == null || !messages.isArray() || messages.isEmpty()) {
            throw new BadRequestException("'messages' must be a non-empty list");
        }
        List<ChatMessage> chat = new ArrayList<>();
        for (JsonNode message : messages) {
            String role = message.path("role").asText("");
            if (role.isBlank()) {
                throw new BadRequestException("every message needs a 'role'");
            }
            JsonNode content = message.path("content");
            StringBuilder text = new StringBuilder();
            if (content.isTextual()) {
                text.append(content.asText());
            } else {
                for (JsonNode part : content) {
                    text.append(part.path("text").asText(""));
                }
            }
            chat.add(new ChatMessage(role, text.toString()));
        }
        return counter.countChat(chat);
    }
}
