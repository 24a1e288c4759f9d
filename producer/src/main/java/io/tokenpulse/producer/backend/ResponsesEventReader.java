package io.tokenpulse.producer.backend;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Reads the OpenAI Responses API's stream events ({@code POST /v1/responses} with
 * {@code stream: true}):
 * <ul>
 *   <li>{@code response.output_text.delta}: answer text in {@code delta}, a timing event;</li>
 *   <li>{@code response.reasoning_text.delta} (vLLM, open models) and
 *       {@code response.reasoning_summary_text.delta} (OpenAI's reasoning summaries): thinking in
 *       {@code delta}, a timing event, as chat's {@code reasoning_content};</li>
 *   <li>{@code response.completed}, and {@code response.incomplete} (OpenAI ends a response cut
 *       at {@code max_output_tokens} so): the closing event, with {@code response.usage}
 *       ({@code input_tokens}, which includes {@code input_tokens_details.cached_tokens}, the prefix
 *       cache's share, read as chat's {@code prompt_tokens_details.cached_tokens}; {@code output_tokens},
 *       {@code output_tokens_details.reasoning_tokens});</li>
 *   <li>{@code response.failed} ({@code response.error.message}) and {@code error}
 *       ({@code message}): the request fails with the server's message;</li>
 *   <li>every other kind (created, in_progress, output_item.*, content_part.*, *.done) says
 *       nothing the metrics need.</li>
 * </ul>
 */
final class ResponsesEventReader extends TypedEventReader {

    /** The event a complete stream ends with. */
    static final String CLOSING_EVENT = "response.completed";

    @Override
    StreamEvent read(String type, JsonNode event) {
        return switch (type) {
            case "response.output_text.delta" -> answer(text(event.get("delta")));
            case "response.reasoning_text.delta", "response.reasoning_summary_text.delta" ->
                thinking(text(event.get("delta")));
            case "response.completed", "response.incomplete" ->
                closing(usage(event.path("response").get("usage")));
            case "response.failed" -> serverError(event.path("response").get("error"));
            case "error" -> serverError(event.has("message") ? event : event.get("error"));
            default -> NOTHING;
        };
    }

    private static StreamEvent.Usage usage(JsonNode usage) {
        if (usage == null || !usage.isObject()) {
            return null;
        }
        return new StreamEvent.Usage(
                count(usage.get("input_tokens")),
                count(usage.get("output_tokens")),
                count(usage.path("output_tokens_details").get("reasoning_tokens")),
                count(usage.path("input_tokens_details").get("cached_tokens")));
    }
}
