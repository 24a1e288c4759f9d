package io.tokenpulse.simulator.wire;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * Hugging Face TGI's {@code /generate_stream}: one SSE event per token, written as TGI's axum server
 * does ({@code data:} without a space), {@code {"index":i,"token":{"id","text","logprob","special"},
 * "generated_text":null,"details":null}}; the last event also carries the whole
 * {@code generated_text}. No {@code [DONE]}: the stream just ends. {@code details} stays null (the
 * simulator ignores {@code parameters.details}, which vLLM's client never sets).
 */
final class TgiFormat extends ChunkFormat {

    private static final byte[] DATA = "data:".getBytes(StandardCharsets.US_ASCII);

    private final StringBuilder generated = new StringBuilder();

    TgiFormat(String outputWord) {
        super(outputWord, 0);
    }

    @Override
    public void tokenEvent(ByteBuf out, String text, String finishReason, int tokensSoFar) {
        generated.append(text);
        event(out, DATA, g -> {
            g.writeStartObject();
            g.writeNumberField("index", tokensSoFar);
            g.writeObjectFieldStart("token");
            g.writeNumberField("id", tokensSoFar);
            g.writeStringField("text", text);
            g.writeNumberField("logprob", -0.01);
            g.writeBooleanField("special", false);
            g.writeEndObject();
            if (finishReason == null) {
                g.writeNullField("generated_text");
            } else {
                g.writeStringField("generated_text", generated.toString());
            }
            g.writeNullField("details");
            g.writeEndObject();
        });
    }

    @Override
    public boolean endsWithDone() {
        return false;
    }
}
