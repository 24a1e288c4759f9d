package io.tokenpulse.simulator.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * vLLM's OpenAI JSON: completions, chat completions and audio transcriptions. Field order and nulls
 * follow vLLM's output ({@code "usage":null} on completions chunks, the chat role event before the
 * first content, transcription chunks without {@code index} and with {@code finish_reason} only on the
 * last). With {@code stream_options.continuous_usage_stats} every chunk carries the usage so far.
 */
final class OpenAiFormat extends ChunkFormat {

    private static final byte[] DATA = "data: ".getBytes(StandardCharsets.US_ASCII);

    private final Endpoint endpoint;
    private final String id;
    private final String model;
    private final long createdEpochSeconds;
    private final int promptTokens;
    private final boolean continuousUsage;

    OpenAiFormat(GenerationRequest request, ResponseName name, String outputWord, int reasoningTokens) {
        super(outputWord, reasoningTokens);
        this.endpoint = request.endpoint();
        this.id = endpoint.idPrefix + name.requestId();
        this.model = name.model();
        this.createdEpochSeconds = name.createdEpochSeconds();
        this.promptTokens = request.promptTokens();
        this.continuousUsage = request.continuousUsage();
    }

    @Override
    public void roleEvent(ByteBuf out, boolean roleOnly) {
        event(out, DATA, g -> {
            header(g, endpoint.chunkObject);
            g.writeArrayFieldStart("choices");
            g.writeStartObject();
            g.writeNumberField("index", 0);
            g.writeObjectFieldStart("delta");
            g.writeStringField("role", "assistant");
            if (!roleOnly) {
                g.writeStringField("content", "");
            }
            g.writeEndObject();
            g.writeNullField("logprobs");
            g.writeNullField("finish_reason");
            g.writeEndObject();
            g.writeEndArray();
            if (continuousUsage) {
                usage(g, promptTokens, 0);
            }
            g.writeEndObject();
        });
    }

    @Override
    public void tokenEvent(ByteBuf out, String text, String finishReason, int tokensSoFar) {
        tokenEvent(out, "", text, finishReason, tokensSoFar);
    }

    @Override
    public void tokenEvent(ByteBuf out, String thinking, String text, String finishReason, int tokensSoFar) {
        event(out, DATA, g -> {
            header(g, endpoint.chunkObject);
            g.writeArrayFieldStart("choices");
            g.writeStartObject();
            switch (endpoint) {
                case CHAT -> {
                    g.writeNumberField("index", 0);
                    delta(g, thinking, text);
                    g.writeNullField("logprobs");
                    g.writeStringField("finish_reason", finishReason);
                }
                case TRANSCRIPTION -> {
                    // pydantic's exclude_unset: finish and stop reason only once set
                    delta(g, "", text);
                    if (finishReason != null) {
                        g.writeStringField("finish_reason", finishReason);
                        g.writeNullField("stop_reason");
                    }
                }
                default -> {
                    g.writeNumberField("index", 0);
                    g.writeStringField("text", text);
                    g.writeNullField("logprobs");
                    g.writeStringField("finish_reason", finishReason);
                    g.writeNullField("stop_reason");
                }
            }
            g.writeEndObject();
            g.writeEndArray();
            if (continuousUsage) {
                usage(g, promptTokens, tokensSoFar);
            } else if (endpoint == Endpoint.COMPLETIONS) {
                g.writeNullField("usage");
            }
            g.writeEndObject();
        });
    }

    @Override
    public void usageEvent(ByteBuf out, int prompt, int completionTokens) {
        event(out, DATA, g -> {
            header(g, endpoint.chunkObject);
            g.writeArrayFieldStart("choices");
            g.writeEndArray();
            usage(g, prompt, completionTokens);
            g.writeEndObject();
        });
    }

    @Override
    public boolean endsWithDone() {
        return true;
    }

    @Override
    public void wholeResponse(ByteBuf out, String text, String finishReason, int prompt, int completionTokens) {
        generate(out, g -> {
            if (endpoint == Endpoint.TRANSCRIPTION) {
                g.writeStartObject();
                g.writeStringField("text", text);
                g.writeEndObject();
                return;
            }
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
            usage(g, prompt, completionTokens);
            g.writeEndObject();
        });
    }

    /** vLLM's reasoning parser sends thinking as {@code reasoning_content}, without {@code content}. */
    private static void delta(JsonGenerator g, String thinking, String text) throws IOException {
        g.writeObjectFieldStart("delta");
        if (!thinking.isEmpty()) {
            g.writeStringField("reasoning_content", thinking);
        }
        if (thinking.isEmpty() || !text.isEmpty()) {
            g.writeStringField("content", text);
        }
        g.writeEndObject();
    }

    private void header(JsonGenerator g, String object) throws IOException {
        g.writeStartObject();
        g.writeStringField("id", id);
        g.writeStringField("object", object);
        g.writeNumberField("created", createdEpochSeconds);
        g.writeStringField("model", model);
    }

    private void usage(JsonGenerator g, int promptTokens, int completionTokens) throws IOException {
        g.writeObjectFieldStart("usage");
        g.writeNumberField("prompt_tokens", promptTokens);
        g.writeNumberField("total_tokens", promptTokens + completionTokens);
        g.writeNumberField("completion_tokens", completionTokens);
        if (cachedTokens() >= 0) {
            // OpenAI's split of the prompt tokens: those served from the prefix cache
            g.writeObjectFieldStart("prompt_tokens_details");
            g.writeNumberField("cached_tokens", cachedTokens());
            g.writeEndObject();
        }
        if (reasons()) {
            // OpenAI's split of the completion tokens
            g.writeObjectFieldStart("completion_tokens_details");
            g.writeNumberField("reasoning_tokens", reasoningTokensOf(completionTokens));
            g.writeEndObject();
        }
        g.writeEndObject();
    }
}
