package io.tokenpulse.simulator;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The parts of an OpenAI completions or chat request the simulator acts on.
 *
 * @param promptTokens approximate prompt length: whitespace-separated words of the prompt or of the
 *                     messages' text, or the length of a token-id prompt (no tokenizer yet)
 * @param maxTokens    max_completion_tokens, else max_tokens, else the server's default
 * @param ignoreEos    accepted for vLLM compatibility; the simulator never emits EOS early, so every
 *                     stream runs to maxTokens either way
 */
record GenerationRequest(Endpoint endpoint, boolean stream, boolean includeUsage, int promptTokens,
                         int maxTokens, boolean ignoreEos) {

    private static final ObjectMapper JSON = new ObjectMapper();

    static GenerationRequest parse(Endpoint endpoint, byte[] body, int defaultMaxTokens) throws BadRequestException {
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
        int promptTokens = endpoint == Endpoint.CHAT ? chatPromptTokens(root) : completionPromptTokens(root);
        int maxTokens = maxTokens(root, defaultMaxTokens);
        boolean stream = root.path("stream").asBoolean(false);
        boolean includeUsage = root.path("stream_options").path("include_usage").asBoolean(false);
        return new GenerationRequest(endpoint, stream, includeUsage, promptTokens, maxTokens,
                root.path("ignore_eos").asBoolean(false));
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

    private static int completionPromptTokens(JsonNode root) throws BadRequestException {
        JsonNode prompt = root.get("prompt");
        if (prompt == null || prompt.isNull()) {
            throw new BadRequestException("'prompt' is required");
        }
        if (prompt.isTextual()) {
            return words(prompt.asText());
        }
        if (prompt.isArray() && !prompt.isEmpty() && prompt.get(0).isIntegralNumber()) {
            return prompt.size();
        }
        throw new BadRequestException("'prompt' must be a string or a list of token ids (batched prompts are not supported)");
    }

    private static int chatPromptTokens(JsonNode root) throws BadRequestException {
        JsonNode messages = root.get("messages");
        if (messages == null || !messages.isArray() || messages.isEmpty()) {
            throw new BadRequestException("'messages' must be a non-empty list");
        }
        int words = 0;
        for (JsonNode message : messages) {
            JsonNode content = message.path("content");
            if (content.isTextual()) {
                words += words(content.asText());
            } else {
                for (JsonNode part : content) {
                    words += words(part.path("text").asText(""));
                }
            }
        }
        return words;
    }

    private static int words(String text) {
        String trimmed = text.strip();
        return trimmed.isEmpty() ? 0 : trimmed.split("\\s+").length;
    }
}
