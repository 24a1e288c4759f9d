package io.tokenpulse.producer.backend;

import com.fasterxml.jackson.core.JsonGenerator;
import io.tokenpulse.tokenizers.ChatMessage;
import java.io.IOException;
import java.util.List;

/**
 * A session's conversation on the wire: a JSON array of {@code {"role", "content"}} objects of string
 * content, the form chat's {@code messages}, the Responses API's {@code input} and the Messages API's
 * {@code messages} share.
 */
final class MessageList {

    private MessageList() {}

    /** Writes {@code messages} as the array field {@code field}. */
    static void write(JsonGenerator json, String field, List<ChatMessage> messages) throws IOException {
        json.writeArrayFieldStart(field);
        for (ChatMessage message : messages) {
            json.writeStartObject();
            json.writeStringField("role", message.role());
            json.writeStringField("content", message.content());
            json.writeEndObject();
        }
        json.writeEndArray();
    }
}
