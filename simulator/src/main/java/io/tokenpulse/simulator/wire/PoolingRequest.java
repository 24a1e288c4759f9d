package io.tokenpulse.simulator.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tokenpulse.simulator.engine.PromptCounter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * One pooling request as the simulator's engine sees it: the texts it was sent and the tokens they
 * make. An embeddings request's inputs are each one sequence; a rerank or score request's pairs (the
 * query with each document, {@code text_1} with each {@code text_2}) are each one sequence of both
 * texts, as a cross-encoder reads them. {@code truncate_prompt_tokens} (-1: the context length, k: the
 * last k) shortens each sequence as vLLM does; without it a sequence of the context length or more is
 * refused with vLLM's message.
 *
 * @param endpoint which API
 * @param model the {@code model} field, or null when absent
 * @param inputs the embeddings' inputs, the rerank's documents or the score's {@code text_2} values, in order
 * @param query the rerank query or score {@code text_1} per pair (one per input); empty for embeddings
 * @param topN rerank's {@code top_n}: how many results to return; the number of documents when absent
 * @param promptIds every sequence's token ids one after another (the engine's prefix-cache key)
 */
public record PoolingRequest(
        PoolingEndpoint endpoint, String model, List<String> inputs, List<String> query, int topN, int[] promptIds) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Tokens of all its sequences: what the engine prefills and usage reports. */
    public int promptTokens() {
        return promptIds.length;
    }

    /**
     * Reads a request body of {@code endpoint}.
     *
     * @throws BadRequestException for a body vLLM would refuse with 400, with its reason
     */
    public static PoolingRequest parse(PoolingEndpoint endpoint, byte[] body, PromptCounter counter, int maxModelLen)
            throws BadRequestException {
        JsonNode json;
        try {
            json = JSON.readTree(body);
        } catch (IOException e) {
            throw new BadRequestException("the request body is not JSON: "
                    + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
        }
        if (json == null || !json.isObject()) {
            throw new BadRequestException("the request body must be a JSON object");
        }
        String model = json.path("model").isTextual() ? json.get("model").asText() : null;
        List<String> inputs;
        List<String> query = new ArrayList<>();
        int topN;
        switch (endpoint) {
            case EMBEDDINGS -> {
                inputs = texts(json, "input");
                topN = inputs.size();
            }
            case RERANK -> {
                String q = text(json, "query");
                inputs = texts(json, "documents");
                inputs.forEach(d -> query.add(q));
                topN = json.path("top_n").isInt() && json.get("top_n").asInt() > 0
                        ? Math.min(json.get("top_n").asInt(), inputs.size())
                        : inputs.size();
            }
            default -> {
                List<String> first = texts(json, "text_1");
                inputs = texts(json, "text_2");
                if (first.size() == 1) {
                    inputs.forEach(t -> query.add(first.get(0)));
                } else if (first.size() == inputs.size()) {
                    query.addAll(first);
                } else {
                    throw new BadRequestException("text_1 has " + first.size() + " texts and text_2 " + inputs.size()
                            + ": give one text_1, or as many as text_2");
                }
                topN = inputs.size();
            }
        }
        int limit = truncation(json, maxModelLen);
        List<int[]> sequences = new ArrayList<>();
        for (int i = 0; i < inputs.size(); i++) {
            int[] ids = query.isEmpty()
                    ? counter.textIds(inputs.get(i))
                    : concat(counter.textIds(query.get(i)), counter.textIds(inputs.get(i)));
            if (ids.length > limit) {
                ids = java.util.Arrays.copyOfRange(ids, ids.length - limit, ids.length);
            } else if (limit == Integer.MAX_VALUE && ids.length >= maxModelLen) {
                throw new BadRequestException("This model's maximum context length is " + maxModelLen
                        + " tokens. However, you requested " + ids.length + " tokens in the input for "
                        + (query.isEmpty() ? "embedding" : "scoring") + " generation. Please reduce the length"
                        + " of the input.");
            }
            sequences.add(ids);
        }
        int[] all = sequences.stream().flatMapToInt(IntStream::of).toArray();
        return new PoolingRequest(endpoint, model, List.copyOf(inputs), List.copyOf(query), topN, all);
    }

    /** The most tokens a sequence keeps: {@code truncate_prompt_tokens} (-1: the context length); unlimited without it. */
    private static int truncation(JsonNode json, int maxModelLen) throws BadRequestException {
        JsonNode truncate = json.path("truncate_prompt_tokens");
        if (truncate.isMissingNode() || truncate.isNull()) {
            return Integer.MAX_VALUE;
        }
        if (!truncate.isInt() || truncate.asInt() < -1 || truncate.asInt() == 0) {
            throw new BadRequestException("truncate_prompt_tokens must be -1 or a positive integer, got " + truncate);
        }
        return truncate.asInt() == -1 ? maxModelLen : Math.min(truncate.asInt(), maxModelLen);
    }

    private static String text(JsonNode json, String field) throws BadRequestException {
        JsonNode node = json.path(field);
        if (!node.isTextual()) {
            throw new BadRequestException("'" + field + "' must be a string");
        }
        return node.asText();
    }

    /** A string or a non-empty list of strings. */
    private static List<String> texts(JsonNode json, String field) throws BadRequestException {
        JsonNode node = json.path(field);
        List<String> texts = new ArrayList<>();
        if (node.isTextual()) {
            texts.add(node.asText());
        } else if (node.isArray() && !node.isEmpty()) {
            for (JsonNode item : node) {
                if (!item.isTextual()) {
                    throw new BadRequestException("'" + field + "' must be a string or a list of strings");
                }
                texts.add(item.asText());
            }
        } else {
            throw new BadRequestException("'" + field + "' must be a string or a non-empty list of strings");
        }
        return texts;
    }

    private static int[] concat(int[] a, int[] b) {
        int[] both = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }
}
