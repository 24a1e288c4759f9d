package io.tokenpulse.simulator.wire;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tokenpulse.simulator.engine.PromptCounter;
import io.tokenpulse.tokenizers.ChatMessage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The parts of a generation request the simulator acts on, whatever its wire format.
 *
 * @param model           the request's model ("model", or the Triton URL's), null when it gave none
 * @param stream          answer with SSE events rather than one body
 * @param includeUsage    stream_options.include_usage: a usage-only event before [DONE]
 * @param continuousUsage stream_options.continuous_usage_stats: usage on every chunk too
 * @param promptTokens    prompt length by the server's {@link PromptCounter}, or the length of a token-id prompt
 * @param promptIds       the prompt's token ids for the prefix cache (as many as promptTokens), or none for a
 *                        prompt the cache cannot key on (an audio clip)
 * @param maxTokens       max_completion_tokens, else max_tokens (TGI: max_new_tokens), else the server's default
 * @param maxTokensGiven  whether the request set maxTokens itself
 * @param minTokens       tokens generated before a simulated EOS may stop the request (Triton's min_length), else 0
 * @param ignoreEos       true: generate maxTokens; false: stop at a simulated EOS drawn by {@link OutputLengths}
 */
public record GenerationRequest(
        Endpoint endpoint,
        String model,
        boolean stream,
        boolean includeUsage,
        boolean continuousUsage,
        int promptTokens,
        int[] promptIds,
        int maxTokens,
        boolean maxTokensGiven,
        int minTokens,
        boolean ignoreEos) {

    private static final ObjectMapper JSON = new ObjectMapper();

    public GenerationRequest {
        if (promptTokens < 0 || promptIds.length > promptTokens || maxTokens < 1 || minTokens < 0) {
            throw new IllegalArgumentException("bug: prompt " + promptTokens + " (" + promptIds.length + " ids), max "
                    + maxTokens + ", min " + minTokens);
        }
    }

    /** An OpenAI completions or chat request, or TGI's /generate_stream. */
    public static GenerationRequest parse(Endpoint endpoint, byte[] body, int defaultMaxTokens, PromptCounter counter)
            throws BadRequestException {
        JsonNode root = object(body);
        if (endpoint == Endpoint.TGI) {
            return tgi(root, defaultMaxTokens, counter);
        }
        int[] promptIds = endpoint == Endpoint.CHAT ? chatPromptIds(root, counter) : completionPromptIds(root, counter);
        int maxTokens = maxTokens(root, defaultMaxTokens);
        boolean maxTokensGiven = root.hasNonNull("max_completion_tokens") || root.hasNonNull("max_tokens");
        boolean stream = root.path("stream").asBoolean(false);
        JsonNode options = root.path("stream_options");
        boolean includeUsage = options.path("include_usage").asBoolean(false);
        // vLLM sends usage on every chunk only when usage was asked for at all
        boolean continuousUsage =
                includeUsage && options.path("continuous_usage_stats").asBoolean(false);
        JsonNode model = root.get("model");
        return new GenerationRequest(
                endpoint,
                model == null || model.isNull() ? null : model.asText(),
                stream,
                includeUsage,
                continuousUsage,
                promptIds.length,
                promptIds,
                maxTokens,
                maxTokensGiven,
                0,
                root.path("ignore_eos").asBoolean(false));
    }

    /**
     * TGI's {"inputs", "parameters": {"max_new_tokens", "temperature", "top_p", "truncate",
     * "ignore_eos_token", ...}}, with TGI's own checks on temperature and top_p (the reason vLLM's
     * client sends 0.01 and 0.99). {@code truncate} keeps the last N prompt tokens, as TGI does.
     */
    private static GenerationRequest tgi(JsonNode root, int defaultMaxTokens, PromptCounter counter)
            throws BadRequestException {
        JsonNode inputs = root.get("inputs");
        if (inputs == null || !inputs.isTextual()) {
            throw new BadRequestException("'inputs' is required and must be a string");
        }
        JsonNode parameters = root.path("parameters");
        if (!parameters.isMissingNode() && !parameters.isNull() && !parameters.isObject()) {
            throw new BadRequestException("'parameters' must be an object");
        }
        JsonNode temperature = parameters.path("temperature");
        if (temperature.isNumber() && !(temperature.doubleValue() > 0)) {
            throw new BadRequestException("`temperature` must be strictly positive");
        }
        JsonNode topP = parameters.path("top_p");
        if (topP.isNumber() && !(topP.doubleValue() > 0 && topP.doubleValue() < 1)) {
            throw new BadRequestException("`top_p` must be > 0.0 and < 1.0");
        }
        int[] promptIds = counter.textIds(inputs.asText());
        JsonNode truncate = parameters.path("truncate");
        if (!truncate.isMissingNode() && !truncate.isNull()) {
            int keep = Math.min(promptIds.length, positiveInt(truncate, "truncate"));
            promptIds = Arrays.copyOfRange(promptIds, promptIds.length - keep, promptIds.length);
        }
        JsonNode maxNew = parameters.path("max_new_tokens");
        boolean given = !maxNew.isMissingNode() && !maxNew.isNull();
        int maxTokens = given ? positiveInt(maxNew, "max_new_tokens") : defaultMaxTokens;
        return streamed(
                Endpoint.TGI,
                null,
                promptIds,
                maxTokens,
                given,
                0,
                parameters.path("ignore_eos_token").asBoolean(false));
    }

    /**
     * The TensorRT-LLM ensemble's {"text_input", "max_tokens", "min_length", ...} for model
     * {@code model} of the URL. Always streamed: it came to generate_stream.
     */
    public static GenerationRequest parseTriton(byte[] body, String model, int defaultMaxTokens, PromptCounter counter)
            throws BadRequestException {
        JsonNode root = object(body);
        JsonNode text = root.get("text_input");
        if (text == null || !text.isTextual()) {
            throw new BadRequestException("'text_input' is required and must be a string");
        }
        JsonNode max = root.get("max_tokens");
        boolean given = max != null && !max.isNull();
        int maxTokens = given ? positiveInt(max, "max_tokens") : defaultMaxTokens;
        JsonNode min = root.get("min_length");
        int minTokens = min == null || min.isNull() || (min.isIntegralNumber() && min.intValue() == 0)
                ? 0
                : positiveInt(min, "min_length");
        int[] promptIds = counter.textIds(text.asText());
        return streamed(Endpoint.TRITON, model, promptIds, maxTokens, given, minTokens, false);
    }

    /** A TGI or Triton request: always streamed (it came to a streaming path), and its stream carries no usage. */
    private static GenerationRequest streamed(
            Endpoint endpoint,
            String model,
            int[] promptIds,
            int maxTokens,
            boolean maxTokensGiven,
            int minTokens,
            boolean ignoreEos) {
        return new GenerationRequest(
                endpoint,
                model,
                true,
                false,
                false,
                promptIds.length,
                promptIds,
                maxTokens,
                maxTokensGiven,
                minTokens,
                ignoreEos);
    }

    static JsonNode object(byte[] body) throws BadRequestException {
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
        return root;
    }

    static int positiveInt(JsonNode node, String name) throws BadRequestException {
        if (!node.isIntegralNumber() || !node.canConvertToInt() || node.intValue() < 1) {
            throw new BadRequestException(name + " must be an integer >= 1, got " + node);
        }
        return node.intValue();
    }

    private static int maxTokens(JsonNode root, int defaultMaxTokens) throws BadRequestException {
        JsonNode node =
                root.hasNonNull("max_completion_tokens") ? root.get("max_completion_tokens") : root.get("max_tokens");
        if (node == null || node.isNull()) {
            return defaultMaxTokens;
        }
        if (!node.canConvertToInt() || !node.isIntegralNumber() || node.intValue() < 1) {
            throw new BadRequestException("max_tokens must be an integer >= 1, got " + node);
        }
        return node.intValue();
    }

    private static int[] completionPromptIds(JsonNode root, PromptCounter counter) throws BadRequestException {
        JsonNode prompt = root.get("prompt");
        if (prompt == null || prompt.isNull()) {
            throw new BadRequestException("'prompt' is required");
        }
        if (prompt.isTextual()) {
            return counter.textIds(prompt.asText());
        }
        if (prompt.isArray() && !prompt.isEmpty() && prompt.get(0).isIntegralNumber()) {
            int[] ids = new int[prompt.size()];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = prompt.get(i).asInt();
            }
            return ids;
        }
        throw new BadRequestException(
                "'prompt' must be a string or a list of token ids (batched prompts are not supported)");
    }

    private static int[] chatPromptIds(JsonNode root, PromptCounter counter) throws BadRequestException {
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
        return counter.chatIds(chat);
    }
}
