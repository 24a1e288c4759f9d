package io.tokenpulse.producer.backend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/**
 * Reads a whole (non-streamed) answer: a body that is not a JSON object is malformed, an {@code
 * error} in it fails the request ({@code "error": "..."} or {@code "error": {"message": ...}}), and
 * the rest is the API's own ({@link #answer}). Runs once per request, so a tree is fine here.
 */
abstract class AnswerReader implements EventParser {

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

    /** The event of an answer without an error. */
    abstract StreamEvent answer(JsonNode body);
}
