package io.tokenpulse.simulator.wire;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Writes one response in its endpoint's wire format: SSE events while streaming, or the whole body.
 * One instance per response (a format may keep the text so far, as TGI's last event repeats it).
 * The server's {@code StreamingResponse} decides when each event goes out; the subclasses decide
 * what it says:
 * {@link OpenAiFormat} (completions, chat, transcriptions), {@link TgiFormat}, {@link TritonFormat},
 * {@link ResponsesFormat} (OpenAI Responses), {@link MessagesFormat} (Anthropic Messages).
 */
public abstract class ChunkFormat {

    static final JsonFactory JSON = new JsonFactory();
    static final byte[] EVENT_END = "\n\n".getBytes(StandardCharsets.US_ASCII);

    /** The euro sign: three bytes in UTF-8, so a write can be split inside it. */
    static final String MULTI_BYTE = "\u20ac";

    private final String outputWord;
    private final int reasoningTokens;
    /** Prompt tokens the engine's prefix cache held, or -1 when the model keeps no prefix cache. */
    private volatile int cachedTokens = -1;

    /**
     * @param outputWord how every generated token is spelled, or null for {@code "tok<i> "}
     * @param reasoningTokens how many of the response's first tokens are thinking
     */
    ChunkFormat(String outputWord, int reasoningTokens) {
        this.outputWord = outputWord;
        this.reasoningTokens = reasoningTokens;
    }

    /**
     * The format of {@code request}'s response; a streamed chat response starts with
     * {@code reasoningTokens} tokens of thinking (other responses have no field for it).
     */
    public static ChunkFormat of(GenerationRequest request, ResponseName name, String outputWord, int reasoningTokens) {
        return switch (request.endpoint()) {
            case COMPLETIONS, CHAT, TRANSCRIPTION ->
                new OpenAiFormat(
                        request,
                        name,
                        outputWord,
                        request.endpoint() == Endpoint.CHAT && request.stream() ? reasoningTokens : 0);
            case TGI -> new TgiFormat(outputWord);
            case TRITON -> new TritonFormat(request.model(), outputWord);
            case RESPONSES -> new ResponsesFormat(request, name, outputWord, request.stream() ? reasoningTokens : 0);
            case MESSAGES ->
                new MessagesFormat(
                        request, name.requestId(), name.model(), outputWord, request.stream() ? reasoningTokens : 0);
        };
    }

    /** How many of the {@code tokens} tokens from token {@code firstToken} on are thinking. */
    public int thinkingTokens(int firstToken, int tokens) {
        return Math.max(0, Math.min(tokens, reasoningTokens - firstToken));
    }

    /** The thinking's share of {@code completionTokens}, as usage reports it. */
    int reasoningTokensOf(int completionTokens) {
        return Math.min(reasoningTokens, completionTokens);
    }

    /** Whether responses in this format carry thinking. */
    boolean reasons() {
        return reasoningTokens > 0;
    }

    /**
     * The text of {@code tokens} tokens starting at token {@code firstToken}: fake words
     * {@code "tok<i> "}, or the configured word, which the server's tokenizer counts as one token
     * each, so a client that re-tokenizes the text (TGI, TensorRT-LLM, DeepSpeed-MII) counts what was sent.
     */
    public String text(int firstToken, int tokens, boolean multiByte) {
        StringBuilder text = new StringBuilder(tokens * 8);
        for (int i = firstToken; i < firstToken + tokens; i++) {
            if (outputWord != null) {
                text.append(outputWord);
            } else {
                text.append("tok").append(i);
            }
            if (multiByte) {
                text.append(MULTI_BYTE);
            }
            if (outputWord == null) {
                text.append(' ');
            }
        }
        return text.toString();
    }

    /** The chat stream's first event: the assistant role with empty content (none at all when {@code roleOnly}). */
    public void roleEvent(ByteBuf out, boolean roleOnly) {
        throw new UnsupportedOperationException("only chat streams start with a role event");
    }

    /**
     * One event carrying {@code text}.
     *
     * @param finishReason null except on the last event: {@code stop} (simulated EOS) or {@code length}
     * @param tokensSoFar  tokens sent up to and including this event
     */
    public abstract void tokenEvent(ByteBuf out, String text, String finishReason, int tokensSoFar);

    /**
     * One event carrying a reasoning model's {@code thinking} and then {@code text}, either possibly
     * empty; only a format that {@link #reasons} has thinking to send.
     */
    public void tokenEvent(ByteBuf out, String thinking, String text, String finishReason, int tokensSoFar) {
        if (!thinking.isEmpty()) {
            throw new UnsupportedOperationException("this format carries no reasoning");
        }
        tokenEvent(out, text, finishReason, tokensSoFar);
    }

    /**
     * The engine found {@code tokens} of the prompt in its prefix cache (set from the engine's thread,
     * before the first token); usage reports it where the format has a field for it.
     */
    public void prefixCached(int tokens) {
        cachedTokens = tokens;
    }

    /** {@link #prefixCached}'s tokens, or -1 when the model did not say (no prefix cache). */
    int cachedTokens() {
        return cachedTokens;
    }

    /** The usage-only event sent when the request asked for usage. */
    public void usageEvent(ByteBuf out, int promptTokens, int completionTokens) {
        throw new UnsupportedOperationException("this format has no usage event");
    }

    /**
     * The events a stream opens with before its first token (the Responses API's
     * {@code response.created}, Messages' {@code message_start}); none for the other formats.
     *
     * @return how many events were written
     */
    public int openingEvents(ByteBuf out) {
        return 0;
    }

    /**
     * The events a stream closes with after its last token: the Responses API's done events and
     * {@code response.completed}, Messages' {@code message_delta} and {@code message_stop}; none for
     * the other formats (their usage and {@code [DONE]} events are {@link #usageEvent} and
     * {@link #doneEvent}).
     *
     * @param finishReason {@code stop} (simulated EOS) or {@code length}
     * @param withClosingEvent false leaves out the one event a complete stream ends with (the
     *     {@code no-done} fault)
     * @return how many events were written
     */
    public int closingEvents(
            ByteBuf out, String finishReason, int promptTokens, int completionTokens, boolean withClosingEvent) {
        return 0;
    }

    /** Whether the stream ends with {@code data: [DONE]} (OpenAI's formats; TGI and Triton just close). */
    public abstract boolean endsWithDone();

    public void doneEvent(ByteBuf out) {
        out.writeBytes("data: [DONE]\n\n".getBytes(StandardCharsets.US_ASCII));
    }

    /** An event whose JSON breaks off in the middle, as a server bug or a proxy's truncation would leave it. */
    public void malformedEvent(ByteBuf out) {
        out.writeCharSequence("data: {\"choices\":[{\"index\":0,", StandardCharsets.UTF_8);
        out.writeBytes(EVENT_END);
    }

    /** The body of a non-streamed response. */
    public void wholeResponse(ByteBuf out, String text, String finishReason, int promptTokens, int completionTokens) {
        throw new UnsupportedOperationException("this endpoint always streams");
    }

    /** An OpenAI-style error body: {"error":{"message","type","param","code"}}. */
    public static void errorBody(ByteBuf out, String message, String type, int code) {
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

    /** One SSE event: {@code prefix}, the JSON {@code fields} write, and the blank line. */
    static void event(ByteBuf out, byte[] prefix, Fields fields) {
        out.writeBytes(prefix);
        generate(out, fields);
        out.writeBytes(EVENT_END);
    }

    /** One SSE event of a typed-event API: an {@code event: type} line, then the data line. */
    static void namedEvent(ByteBuf out, String type, Fields fields) {
        out.writeCharSequence("event: " + type + "\ndata: ", StandardCharsets.US_ASCII);
        generate(out, fields);
        out.writeBytes(EVENT_END);
    }

    static void generate(ByteBuf out, Fields fields) {
        try (JsonGenerator g = JSON.createGenerator((java.io.OutputStream) new ByteBufOutputStream(out))) {
            fields.write(g);
        } catch (IOException e) {
            throw new UncheckedIOException("writing JSON into a memory buffer failed", e);
        }
    }

    @FunctionalInterface
    interface Fields {
        void write(JsonGenerator g) throws IOException;
    }
}
