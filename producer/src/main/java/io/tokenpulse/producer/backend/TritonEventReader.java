package io.tokenpulse.producer.backend;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * Reads the TensorRT-LLM ensemble's Triton events as vLLM's {@code async_request_trt_llm} does:
 * every event is a timing event whose {@code text_output} is appended; an event without it
 * (Triton's {@code {"error": ...}} included) fails the request, as the missing key fails vLLM's.
 */
final class TritonEventReader extends ObjectEventReader {

    @Override
    StreamEvent fields(JsonParser p) throws IOException {
        String text = null;
        String error = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken value = p.nextToken();
            if (field.equals("text_output") && value == JsonToken.VALUE_STRING) {
                text = p.getText();
            } else if (field.equals("error") && value == JsonToken.VALUE_STRING) {
                error = "server error: " + FailureText.oneLine(p.getText());
            } else {
                p.skipChildren();
            }
        }
        if (error != null) {
            return StreamEvent.failed(error);
        }
        if (text == null) {
            return StreamEvent.malformed("no text_output");
        }
        return new StreamEvent(true, text, null, null);
    }
}
