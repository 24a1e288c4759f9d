package io.tokenpulse.producer.backend;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * Reads TGI's stream events, {@code {"index","token":{"text",...},"generated_text","details"}},
 * as vLLM's {@code async_request_tgi} does: every event is a timing event; the text kept is the
 * {@code generated_text} of the event that has it (the last), the token texts only until then.
 * An {@code {"error": ...}} event fails the request.
 */
final class TgiEventReader extends ObjectEventReader {

    @Override
    StreamEvent fields(JsonParser p) throws IOException {
        String text = "";
        String generated = null;
        String error = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken value = p.nextToken();
            switch (field) {
                case "token" -> text = value == JsonToken.START_OBJECT ? tokenText(p) : skip(p);
                case "generated_text" -> generated = value == JsonToken.VALUE_STRING ? p.getText() : null;
                case "error" -> error = error(p, value);
                default -> p.skipChildren();
            }
        }
        if (error != null) {
            return StreamEvent.failed(error);
        }
        return new StreamEvent(true, text, null, null, generated);
    }

    private static String tokenText(JsonParser p) throws IOException {
        String text = "";
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken value = p.nextToken();
            if (field.equals("text") && value == JsonToken.VALUE_STRING) {
                text = p.getText();
            } else {
                p.skipChildren();
            }
        }
        return text;
    }

    /** TGI's {"error": "...", "error_type": "..."}. */
    private static String error(JsonParser p, JsonToken value) throws IOException {
        if (value == JsonToken.VALUE_NULL) {
            return null;
        }
        if (value == JsonToken.VALUE_STRING) {
            return "server error: " + FailureText.oneLine(p.getText());
        }
        p.skipChildren();
        return "server error: (no message)";
    }

    private static String skip(JsonParser p) throws IOException {
        p.skipChildren();
        return "";
    }
}
