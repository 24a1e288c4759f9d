package io.tokenpulse.simulator.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import io.netty.buffer.ByteBuf;
import java.io.IOException;

/**
 * Anthropic's Messages API ({@code POST /v1/messages}) as its "Streaming Messages" page describes
 * it: every event is {@code event: <type>} plus {@code data: {"type", ...}}. A stream runs
 * {@code message_start} (the message with empty content and {@code usage.input_tokens}), a
 * {@code ping}; for thinking a {@code thinking} content block of {@code thinking_delta} events closed
 * by a {@code signature_delta}; the answer as a {@code text} block of {@code text_delta} events
 * ({@code content_block_start}, deltas, {@code content_block_stop}); then {@code message_delta}
 * ({@code stop_reason} {@code end_turn} or {@code max_tokens}, {@code usage.output_tokens}) and last
 * {@code message_stop}. Not streamed: the message object alone.
 */
final class MessagesFormat extends ChunkFormat {

    /** What stands for a thinking block's signature; clients pass it back unread. */
    private static final String SIGNATURE = "c2ltdWxhdGVkLXNpZ25hdHVyZQ==";

    private final String id;
    private final String model;
    private final int promptTokens;

    private int blocks;
    private boolean thinkingOpen;
    private boolean textOpen;

    MessagesFormat(GenerationRequest request, String requestId, String model, String outputWord, int reasoningTokens) {
        super(outputWord, reasoningTokens);
        this.id = "msg_" + requestId;
        this.model = model;
        this.promptTokens = request.promptTokens();
    }

    @Override
    public int openingEvents(ByteBuf out) {
        event(out, "message_start", g -> {
            g.writeObjectFieldStart("message");
            message(g, null, null, promptTokens, 1);
            g.writeEndObject();
        });
        event(out, "ping", g -> {});
        return 2;
    }

    @Override
    public void tokenEvent(ByteBuf out, String text, String finishReason, int tokensSoFar) {
        tokenEvent(out, "", text, finishReason, tokensSoFar);
    }

    @Override
    public void tokenEvent(ByteBuf out, String thinking, String text, String finishReason, int tokensSoFar) {
        if (!thinking.isEmpty()) {
            if (!thinkingOpen) {
                thinkingOpen = true;
                event(out, "content_block_start", g -> {
                    g.writeNumberField("index", blocks);
                    g.writeObjectFieldStart("content_block");
                    g.writeStringField("type", "thinking");
                    g.writeStringField("thinking", "");
                    g.writeStringField("signature", "");
                    g.writeEndObject();
                });
            }
            delta(out, "thinking_delta", "thinking", thinking);
        }
        // an event with neither (the role-only-first fault) is an empty text delta
        if (!text.isEmpty() || thinking.isEmpty()) {
            closeThinking(out);
            if (!textOpen) {
                textOpen = true;
                event(out, "content_block_start", g -> {
                    g.writeNumberField("index", blocks);
                    g.writeObjectFieldStart("content_block");
                    g.writeStringField("type", "text");
                    g.writeStringField("text", "");
                    g.writeEndObject();
                });
            }
            delta(out, "text_delta", "text", text);
        }
    }

    @Override
    public int closingEvents(
            ByteBuf out, String finishReason, int promptTokens, int completionTokens, boolean withClosingEvent) {
        closeThinking(out);
        if (textOpen) {
            textOpen = false;
            blockStop(out);
        }
        event(out, "message_delta", g -> {
            g.writeObjectFieldStart("delta");
            g.writeStringField("stop_reason", stopReason(finishReason));
            g.writeNullField("stop_sequence");
            g.writeEndObject();
            g.writeObjectFieldStart("usage");
            g.writeNumberField("output_tokens", completionTokens);
            g.writeEndObject();
        });
        if (!withClosingEvent) {
            return 1;
        }
        event(out, "message_stop", g -> {});
        return 2;
    }

    @Override
    public boolean endsWithDone() {
        return false;
    }

    @Override
    public void wholeResponse(ByteBuf out, String text, String finishReason, int prompt, int completionTokens) {
        generate(out, g -> {
            g.writeStartObject();
            message(g, text, finishReason, prompt, completionTokens);
            g.writeEndObject();
        });
    }

    private void closeThinking(ByteBuf out) {
        if (thinkingOpen) {
            thinkingOpen = false;
            delta(out, "signature_delta", "signature", SIGNATURE);
            blockStop(out);
        }
    }

    private void blockStop(ByteBuf out) {
        event(out, "content_block_stop", g -> g.writeNumberField("index", blocks));
        blocks++;
    }

    private void delta(ByteBuf out, String type, String field, String value) {
        event(out, "content_block_delta", g -> {
            g.writeNumberField("index", blocks);
            g.writeObjectFieldStart("delta");
            g.writeStringField("type", type);
            g.writeStringField(field, value);
            g.writeEndObject();
        });
    }

    /**
     * The message object's fields: with {@code text} null, as {@code message_start} has it (no
     * content yet, no stop reason, output tokens a placeholder 1, as Anthropic sends).
     */
    private void message(JsonGenerator g, String text, String finishReason, int prompt, int outputTokens)
            throws IOException {
        g.writeStringField("id", id);
        g.writeStringField("type", "message");
        g.writeStringField("role", "assistant");
        g.writeArrayFieldStart("content");
        if (text != null) {
            g.writeStartObject();
            g.writeStringField("type", "text");
            g.writeStringField("text", text);
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeStringField("model", model);
        g.writeStringField("stop_reason", finishReason == null ? null : stopReason(finishReason));
        g.writeNullField("stop_sequence");
        // Anthropic counts the prompt tokens read from the cache apart from input_tokens (the rest)
        int cached = Math.max(0, cachedTokens());
        g.writeObjectFieldStart("usage");
        g.writeNumberField("input_tokens", prompt - cached);
        g.writeNumberField("cache_creation_input_tokens", 0);
        g.writeNumberField("cache_read_input_tokens", cached);
        g.writeNumberField("output_tokens", outputTokens);
        g.writeEndObject();
    }

    private static String stopReason(String finishReason) {
        return "length".equals(finishReason) ? "max_tokens" : "end_turn";
    }

    /** One event: its type first, as Anthropic writes it, then {@code fields}. */
    private static void event(ByteBuf out, String type, Fields fields) {
        namedEvent(out, type, g -> {
            g.writeStartObject();
            g.writeStringField("type", type);
            fields.write(g);
            g.writeEndObject();
        });
    }
}
