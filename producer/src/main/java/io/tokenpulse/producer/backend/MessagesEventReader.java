package io.tokenpulse.producer.backend;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Reads the Anthropic Messages API's stream events ({@code POST /v1/messages} with
 * {@code stream: true}):
 * <ul>
 *   <li>{@code message_start}: {@code message.usage.input_tokens}, plus the cache's
 *       {@code cache_creation_input_tokens} and {@code cache_read_input_tokens} when given
 *       (Anthropic counts those apart; together they are the whole prompt, as vLLM counts it; the
 *       cache reads are the prompt tokens served from the prefix cache). Its
 *       {@code output_tokens} is a placeholder and is not read;</li>
 *   <li>{@code content_block_delta}: a timing event when {@code delta.type} is {@code text_delta}
 *       (answer, {@code delta.text}) or {@code thinking_delta} (thinking, {@code delta.thinking});
 *       other deltas (a thinking block's {@code signature_delta}, tool input) are not;</li>
 *   <li>{@code message_delta}: {@code usage.output_tokens}, the whole response's count (cumulative), and
 *       the input counts as at the start when it repeats them;</li>
 *   <li>{@code message_stop}: the closing event;</li>
 *   <li>{@code error}: the request fails with {@code error.message};</li>
 *   <li>{@code ping}, {@code content_block_start}, {@code content_block_stop}: nothing the metrics need.</li>
 * </ul>
 */
final class MessagesEventReader extends TypedEventReader {

    /** The event a complete stream ends with. */
    static final String CLOSING_EVENT = "message_stop";

    @Override
    StreamEvent read(String type, JsonNode event) {
        return switch (type) {
            case "content_block_delta" -> delta(event.path("delta"));
            case "message_start" -> usage(event.path("message").get("usage"), false);
            case "message_delta" -> usage(event.get("usage"), true);
            case "message_stop" -> closing(null);
            case "error" -> serverError(event.get("error"));
            default -> NOTHING;
        };
    }

    private static StreamEvent delta(JsonNode delta) {
        return switch (text(delta.get("type"))) {
            case "text_delta" -> answer(text(delta.get("text")));
            case "thinking_delta" -> thinking(text(delta.get("thinking")));
            default -> NOTHING;
        };
    }

    /** @param withOutput whether this event's {@code output_tokens} is the real count (message_delta's) */
    private static StreamEvent usage(JsonNode usage, boolean withOutput) {
        if (usage == null || !usage.isObject()) {
            return NOTHING;
        }
        Integer input = count(usage.get("input_tokens"));
        Integer cacheRead = count(usage.get("cache_read_input_tokens"));
        if (input != null) {
            input += orZero(count(usage.get("cache_creation_input_tokens"))) + orZero(cacheRead);
        }
        Integer output = withOutput ? count(usage.get("output_tokens")) : null;
        return new StreamEvent(false, "", new StreamEvent.Usage(input, output, null, cacheRead), null);
    }

    private static int orZero(Integer count) {
        return count == null ? 0 : count;
    }
}
