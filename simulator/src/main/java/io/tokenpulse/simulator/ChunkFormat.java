package io.tokenpulse.simulator;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufOutputStream;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Writes vLLM-style OpenAI JSON for one response: SSE events while streaming, or the whole body.
 * Field order and nulls follow vLLM's output ({@code "usage":null} on completions chunks, the chat
 * role event before the first content). Tokens are fake words {@code "tok<i> "}.
 */
final class ChunkFormat {

    private static final JsonFactory JSON = new JsonFactory();
    private static final byte[] DATA = "data: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] EVENT_END = "\n\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DONE = "data: [DONE]\n\n".getBytes(StandardCharsets.US_ASCII);

    private final Endpoint endpoint;
    private final String id;
    private final String model;
    private final long createdEpochSeconds;

    ChunkFormat(Endpoint endpoint, String requestId, String model, long createdEpochSeconds) {
        this.endpoint = endpoint;
        this.id = endpoint.idPrefix + requestId;
        this.model = model;
        this.createdEpochSeconds = createdEpochSeconds;
    }

    /** The euro sign: three bytes in UTF-8, so a write can be split inside it. */
    static final String MULTI_BYTE = "\u20ac";

    static String text(int firstToken, int tokens, boolean multiByte) {
        StringBuilder text = new StringBuilder(tokens * 8);
        for (int i = firstToken; i < firstToken + tokens; i++) {
            text.append("tok").append(i);
            if (multiByte) {
                text.append(MULTI_BYTE);
            }
            text.append(' ');
        }
        return text.toString();
    }

    /** The chat stream's first event: the assistant role with empty content (none at all when {@code roleOnly}). */
    void roleEvent(ByteBuf out, boolean roleOnly) {
        event(out, g -> {
            g.writeObjectFieldStart("delta");
            g.writeStringField("role", "assistant");
            if (!roleOnly) {
                g.writeStringField("content", "");
            }
            g.writeEndObject();
            g.writeNullField("logprobs");
            g.writeNullField("finish_reason");
        }, false);
    }

    /** One event carrying {@code text}; {@code finishReason} is null except on the last one. */
    void tokenEvent(ByteBuf out, String text, String finishReason) {
        event(out, g -> {
            if (endpoint == Endpoint.CHAT) {
                g.writeObjectFieldStart("delta");
                g.writeStringField("content", text);
                g.writeEndObject();
                g.writeNullField("logprobs");
                g.writeStringField("finish_reason", finishReason);
            } else {
                g.writeStringField("text", text);
                g.writeNullField("logprobs");
                g.writeStringField("finish_reason", finishReason);
                g.writeNullField("stop_reason");
            }
        }, endpoint == Endpoint.COMPLETIONS);
    }

    /** The usage-only event sent when stream_options.include_usage is set. */
    void usageEvent(ByteBuf out, int promptTokens, int completionTokens) {
        write(out, DATA);
        generate(out, g -> {
            header(g, endpoint.chunkObject);
            g.writeArrayFieldStart("choices");
            g.writeEndArray();
            usage(g, promptTokens, completionTokens);
            g.writeEndObject();
        });
        write(out, EVENT_END);
    }

    void doneEvent(ByteBuf out) {
        write(out, DONE);
    }

    /** An event whose JSON breaks off in the middle, as a server bug or a proxy's truncation would leave it. */
    void malformedEvent(ByteBuf out) {
        write(out, DATA);
        out.writeCharSequence("{\"id\":\"" + id + "\",\"object\":\"" + endpoint.chunkObject + "\",\"choices\":[{\"index\":0,",
                StandardCharsets.UTF_8);
        write(out, EVENT_END);
    }

    /** The body of a non-streamed response. */
    void wholeResponse(ByteBuf out, String text, String finishReason, int promptTokens, int completionTokens) {
        generate(out, g -> {
            header(g, endpoint.object);
            g.writeArrayFieldStart("choices");
            g.writeStartObject();
            g.writeNumberField("index", 0);
            if (endpoint == Endpoint.CHAT) {
                g.writeObjectFieldStart("message");
                g.writeStringField("role", "assistant");
                g.writeStringField("content", text);
                g.writeEndObject();
            } else {
                g.writeStringField("text", text);
            }
            g.writeNullField("logprobs");
            g.writeStringField("finish_reason", finishReason);
            g.writeEndObject();
            g.writeEndArray();
            usage(g, promptTokens, completionTokens);
            g.writeEndObject();
        });
    }

    /** An OpenAI-style error body: {"error":{"message","type","param","code"}}. */
    static void errorBody(ByteBuf out, String message, String type, int code) {
        generate(out, g -> {
            g.writeStartObject();
            g.writeObjectFieldStart("error");
            g.writeStringField("message", message);
            g.writeStringField("type", type);
            g.writeNullField("param");
            g.writeNumberField("code", code);
            g.writeEndObject();
            g.writeEndObject();
        });
    }

    private void event(ByteBuf out, Fields choiceFields, boolean usageNull) {
        write(out, DATA);
        generate(out, g -> {
            header(g, endpoint.chunkObject);
            g.writeArrayFieldStart("choices");
            g.writeStartObject();
            g.writeNumberField("index", 0);
            choiceFields.write(g);
            g.writeEndObject();
            g.writeEndArray();
            if (usageNull) {
                g.writeNullField("usage");
            }
            g.writeEndObject();
        });
        write(out, EVENT_END);
    }

    private void header(JsonGenerator g, String object) throws IOException {
        g.writeStartObject();
        g.writeStringField("id", id);
        g.writeStringField("object", object);
        g.writeNumberField("created", createdEpochSeconds);
        g.writeStringField("model", model);
    }

    private static void usage(JsonGenerator g, int promptTokens, int completionTokens) throws IOException {
        g.writeObjectFieldStart("usage");
        g.writeNumberField("prompt_tokens", promptTokens);
        g.writeNumberField("total_tokens", promptTokens + completionTokens);
        g.writeNumberField("completion_tokens", completionTokens);
        g.writeEndObject();
    }

    private static void generate(ByteBuf out, Fields fields) {
        try (JsonGenerator g = JSON.createGenerator((java.io.OutputStream) new ByteBufOutputStream(out))) {
            fields.write(g);
        } catch (IOException e) {
            throw new UncheckedIOException("writing JSON into a memory buffer failed", e);
        }
    }

    private static void write(ByteBuf out, byte[] bytes) {
        out.writeBytes(bytes);
    }

    @FunctionalInterface
    private interface Fields {
        void write(JsonGenerator g) throws IOException;
    }
}
