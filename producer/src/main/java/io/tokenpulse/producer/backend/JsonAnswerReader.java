package io.tokenpulse.producer.backend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/**
 * Reads a whole (non-streamed) answer that is one JSON object: a body that is not one is malformed, an
 * {@code error} member (a string, or an object's {@code message}) fails the request, and the rest is
 * the API's to read ({@link #answer}). Runs once per request, so a tree is fine here. Stateless and
 * thread-safe.
 */
abstract class JsonAnswerReader implements EventParser {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public final StreamEvent read(byte[] data, int offset, int length) {
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
        return answer(body);
    }

    /** What a JSON object without an error says. */
    abstract StreamEvent answer(JsonNode body);
}
