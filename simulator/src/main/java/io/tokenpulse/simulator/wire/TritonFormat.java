package io.tokenpulse.simulator.wire;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * Triton's generate extension as the TensorRT-LLM ensemble streams it
 * ({@code /v2/models/<model>/generate_stream}): one SSE event per decoding step,
 * {@code {"model_name","model_version","sequence_end","sequence_id","sequence_start","text_output"}},
 * where {@code text_output} is the new text only (vLLM's client concatenates them). No
 * {@code [DONE]}: the stream just ends.
 */
final class TritonFormat extends ChunkFormat {

    private static final byte[] DATA = "data: ".getBytes(StandardCharsets.US_ASCII);

    private final String modelName;

    TritonFormat(String modelName, String outputWord) {
        super(outputWord, 0);
        this.modelName = modelName;
    }

    @Override
    public void tokenEvent(ByteBuf out, String text, String finishReason, int tokensSoFar) {
        event(out, DATA, g -> {
            g.writeStartObject();
            g.writeStringField("model_name", modelName);
            g.writeStringField("model_version", "1");
            g.writeBooleanField("sequence_end", false);
            g.writeNumberField("sequence_id", 0);
            g.writeBooleanField("sequence_start", false);
            g.writeStringField("text_output", text);
            g.writeEndObject();
        });
    }

    @Override
    public boolean endsWithDone() {
        return false;
    }
}
