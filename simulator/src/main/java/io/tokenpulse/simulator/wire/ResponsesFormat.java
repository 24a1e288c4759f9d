package io.tokenpulse.simulator.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import io.netty.buffer.ByteBuf;
import java.io.IOException;

/**
 * OpenAI's Responses API ({@code POST /v1/responses}) as its reference's "Streaming events" page
 * describes it: every event is {@code event: <type>} plus {@code data: {"type", "sequence_number",
 * ...}}. A stream runs {@code response.created}, {@code response.in_progress}; for thinking a
 * {@code reasoning} output item with {@code response.reasoning_text.delta} events (vLLM's names for
 * an open model's reasoning); the answer as a {@code message} item ({@code output_item.added},
 * {@code content_part.added}, {@code response.output_text.delta} per event, then the
 * {@code .done} events); and last {@code response.completed}, or {@code response.incomplete} with
 * {@code incomplete_details.reason: max_output_tokens} when the output was cut at the limit, each
 * carrying the whole response with its {@code usage}. Not streamed: the response object alone.
 */
final class ResponsesFormat extends ChunkFormat {

    private final String id;
    private final String reasoningId;
    private final String messageId;
    private final String model;
    private final long createdEpochSeconds;
    private final Integer maxOutputTokens;
    private final StringBuilder thinking = new StringBuilder();
    private final StringBuilder answer = new StringBuilder();

    private int sequence;
    private int outputItems;
    private boolean reasoningOpen;
    private boolean messageOpen;

    ResponsesFormat(
            GenerationRequest request,
            String requestId,
            String model,
            long createdEpochSeconds,
            String outputWord,
            int reasoningTokens) {
        super(outputWord, reasoningTokens);
        this.id = "resp_" + requestId;
        this.reasoningId = "rs_" + requestId;
        this.messageId = "msg_" + requestId;
        this.model = model;
        this.createdEpochSeconds = createdEpochSeconds;
        this.maxOutputTokens = request.maxTokensGiven() ? request.maxTokens() : null;
    }

    @Override
    public int openingEvents(ByteBuf out) {
        event(out, "response.created", g -> response(g, "in_progress", null, 0, 0));
        event(out, "response.in_progress", g -> response(g, "in_progress", null, 0, 0));
        return 2;
    }

    @Override
    public void tokenEvent(ByteBuf out, String text, String finishReason, int tokensSoFar) {
        tokenEvent(out, "", text, finishReason, tokensSoFar);
    }

    @Override
    public void tokenEvent(ByteBuf out, String thinkingText, String text, String finishReason, int tokensSoFar) {
        if (!thinkingText.isEmpty()) {
            if (!reasoningOpen) {
                reasoningOpen = true;
                event(out, "response.output_item.added", g -> {
                    g.writeNumberField("output_index", outputItems);
                    g.writeFieldName("item");
                    reasoningItem(g, false);
                });
            }
            thinking.append(thinkingText);
            event(out, "response.reasoning_text.delta", g -> {
                part(g, reasoningId);
                g.writeStringField("delta", thinkingText);
            });
        }
        // an event with neither (the role-only-first fault) is an empty answer delta
        if (!text.isEmpty() || thinkingText.isEmpty()) {
            closeReasoning(out);
            if (!messageOpen) {
                messageOpen = true;
                event(out, "response.output_item.added", g -> {
                    g.writeNumberField("output_index", outputItems);
                    g.writeFieldName("item");
                    messageItem(g, false);
                });
                event(out, "response.content_part.added", g -> {
                    part(g, messageId);
                    g.writeFieldName("part");
                    outputText(g, "");
                });
            }
            answer.append(text);
            event(out, "response.output_text.delta", g -> {
                part(g, messageId);
                g.writeStringField("delta", text);
                g.writeArrayFieldStart("logprobs");
                g.writeEndArray();
            });
        }
    }

    @Override
    public int closingEvents(
            ByteBuf out, String finishReason, int promptTokens, int completionTokens, boolean withClosingEvent) {
        closeReasoning(out);
        if (messageOpen) {
            messageOpen = false;
            event(out, "response.output_text.done", g -> {
                part(g, messageId);
                g.writeStringField("text", answer.toString());
                g.writeArrayFieldStart("logprobs");
                g.writeEndArray();
            });
            event(out, "response.content_part.done", g -> {
                part(g, messageId);
                g.writeFieldName("part");
                outputText(g, answer.toString());
            });
            event(out, "response.output_item.done", g -> {
                g.writeNumberField("output_index", outputItems);
                g.writeFieldName("item");
                messageItem(g, true);
            });
            outputItems++;
        }
        if (!withClosingEvent) {
            return 0;
        }
        boolean cut = "length".equals(finishReason);
        event(
                out,
                cut ? "response.incomplete" : "response.completed",
                g -> response(g, cut ? "incomplete" : "completed", finishReason, promptTokens, completionTokens));
        return 1;
    }

    @Override
    public boolean endsWithDone() {
        return false;
    }

    @Override
    public void wholeResponse(ByteBuf out, String text, String finishReason, int promptTokens, int completionTokens) {
        answer.append(text);
        outputItems = 1;
        boolean cut = "length".equals(finishReason);
        generate(out, g -> {
            g.writeStartObject();
            responseFields(g, cut ? "incomplete" : "completed", finishReason, promptTokens, completionTokens);
            g.writeEndObject();
        });
    }

    private void closeReasoning(ByteBuf out) {
        if (!reasoningOpen) {
            return;
        }
        reasoningOpen = false;
        event(out, "response.reasoning_text.done", g -> {
            part(g, reasoningId);
            g.writeStringField("text", thinking.toString());
        });
        event(out, "response.output_item.done", g -> {
            g.writeNumberField("output_index", outputItems);
            g.writeFieldName("item");
            reasoningItem(g, true);
        });
        outputItems++;
    }

    /** One event: its type and sequence number first, as OpenAI writes them, then {@code fields}. */
    private void event(ByteBuf out, String type, Fields fields) {
        int seq = sequence++;
        namedEvent(out, type, g -> {
            g.writeStartObject();
            g.writeStringField("type", type);
            g.writeNumberField("sequence_number", seq);
            fields.write(g);
            g.writeEndObject();
        });
    }

    /** Where a delta or part belongs: its item, that item's place in the output, the part's place in the item. */
    private void part(JsonGenerator g, String itemId) throws IOException {
        g.writeStringField("item_id", itemId);
        g.writeNumberField("output_index", outputItems);
        g.writeNumberField("content_index", 0);
    }

    /** The {@code response} member of created, in_progress and the closing event. */
    private void response(JsonGenerator g, String status, String finishReason, int promptTokens, int completionTokens)
            throws IOException {
        g.writeObjectFieldStart("response");
        responseFields(g, status, finishReason, promptTokens, completionTokens);
        g.writeEndObject();
    }

    private void responseFields(
            JsonGenerator g, String status, String finishReason, int promptTokens, int completionTokens)
            throws IOException {
        boolean done = !status.equals("in_progress");
        g.writeStringField("id", id);
        g.writeStringField("object", "response");
        g.writeNumberField("created_at", createdEpochSeconds);
        g.writeStringField("status", status);
        g.writeNullField("error");
        if (status.equals("incomplete")) {
            g.writeObjectFieldStart("incomplete_details");
            g.writeStringField("reason", "length".equals(finishReason) ? "max_output_tokens" : "content_filter");
            g.writeEndObject();
        } else {
            g.writeNullField("incomplete_details");
        }
        if (maxOutputTokens == null) {
            g.writeNullField("max_output_tokens");
        } else {
            g.writeNumberField("max_output_tokens", maxOutputTokens);
        }
        g.writeStringField("model", model);
        g.writeArrayFieldStart("output");
        if (done) {
            if (!thinking.isEmpty()) {
                reasoningItem(g, true);
            }
            if (!answer.isEmpty() || thinking.isEmpty()) {
                messageItem(g, true);
            }
        }
        g.writeEndArray();
        if (!done) {
            g.writeNullField("usage");
            return;
        }
        g.writeObjectFieldStart("usage");
        g.writeNumberField("input_tokens", promptTokens);
        g.writeObjectFieldStart("input_tokens_details");
        // the prompt tokens the prefix cache served (OpenAI always writes the field: 0 without a cache)
        g.writeNumberField("cached_tokens", Math.max(0, cachedTokens()));
        g.writeEndObject();
        g.writeNumberField("output_tokens", completionTokens);
        g.writeObjectFieldStart("output_tokens_details");
        g.writeNumberField("reasoning_tokens", reasoningTokensOf(completionTokens));
        g.writeEndObject();
        g.writeNumberField("total_tokens", promptTokens + completionTokens);
        g.writeEndObject();
    }

    private void reasoningItem(JsonGenerator g, boolean done) throws IOException {
        g.writeStartObject();
        g.writeStringField("id", reasoningId);
        g.writeStringField("type", "reasoning");
        g.writeArrayFieldStart("summary");
        g.writeEndArray();
        g.writeArrayFieldStart("content");
        if (done) {
            g.writeStartObject();
            g.writeStringField("type", "reasoning_text");
            g.writeStringField("text", thinking.toString());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    private void messageItem(JsonGenerator g, boolean done) throws IOException {
        g.writeStartObject();
        g.writeStringField("id", messageId);
        g.writeStringField("type", "message");
        g.writeStringField("status", done ? "completed" : "in_progress");
        g.writeStringField("role", "assistant");
        g.writeArrayFieldStart("content");
        if (done) {
            outputText(g, answer.toString());
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    private static void outputText(JsonGenerator g, String text) throws IOException {
        g.writeStartObject();
        g.writeStringField("type", "output_text");
        g.writeStringField("text", text);
        g.writeArrayFieldStart("annotations");
        g.writeEndArray();
        g.writeEndObject();
    }
}
