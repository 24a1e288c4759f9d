package io.tokenpulse.producer.backend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/**
 * Reads DeepSpeed-MII's whole (non-streamed) answer as vLLM's {@code async_request_deepspeed_mii}
 * does: the text is {@code choices[0].text}, or {@code text[0]} of MII's own REST format. Its
 * {@code usage} is ignored, as vLLM ignores it: output tokens are the tokenizer's count of the text.
 * Runs once per request, so a tree is fine here.
 */
final class MiiBodyReader implements EventParser {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public StreamEvent read(byte[] data, int offset, int length) {
        JsonNode body;
        try {
            body = JSON.readTree(data, offset, length);
        } catch (IOException e) {
            return StreamEvent.malformed(
                    "the response body is not JSON: " + FailureText.oneLine(String.valueOf(e.getMessage())));
        }
        if (body == null || !body.isObject()) {
            return StreamEvent.malformed("the response body is not a JSON object");
        }
        if (body.hasNonNull("error")) {
            JsonNode error = body.get("error");
            return StreamEvent.failed("server error: "
                    + FailureText.oneLine(
                            error.isTextual()
                                    ? error.asText()
                                    : error.path("message").asText("(no message)")));
        }
        JsonNode text = body.has("choices")
                ? body.path("choices").path(0).path("text")
                : body.path("text").path(0);
        if (!text.isTextual()) {
            return StreamEvent.malformed("Unexpected response format: neither 'choices' nor 'text' found");
        }
        return new StreamEvent(true, text.asText(), null, null);
    }
}
