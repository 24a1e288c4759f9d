package io.tokenpulse.producer.backend;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Reads DeepSpeed-MII's whole (non-streamed) answer as vLLM's {@code async_request_deepspeed_mii}
 * does: the text is {@code choices[0].text}, or {@code text[0]} of MII's own REST format. Its
 * {@code usage} is ignored, as vLLM ignores it: output tokens are the tokenizer's count of the text.
 */
final class MiiBodyReader extends JsonAnswerReader {

    @Override
    StreamEvent answer(JsonNode body) {
        JsonNode text = body.has("choices")
                ? body.path("choices").path(0).path("text")
                : body.path("text").path(0);
        if (!text.isTextual()) {
            return StreamEvent.malformed("Unexpected response format: neither 'choices' nor 'text' found");
        }
        return new StreamEvent(true, text.asText(), null, null);
    }
}
