package io.tokenpulse.producer.backend;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * Reads a streamed event that is one JSON object with a streaming parser, as {@link EventReader}
 * does: anything else, or JSON that breaks off, is a malformed event; the object's fields are the
 * API's own ({@link #fields}).
 */
abstract class ObjectEventReader implements EventParser {

    private static final JsonFactory JSON = new JsonFactory();

    @Override
    public final StreamEvent read(byte[] data, int offset, int length) {
        try (JsonParser p = JSON.createParser(data, offset, length)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return StreamEvent.malformed("not a JSON object");
            }
            return fields(p);
        } catch (JsonProcessingException e) {
            return StreamEvent.malformed(FailureText.oneLine(e.getOriginalMessage()));
        } catch (IOException e) {
            return StreamEvent.malformed(FailureText.oneLine(String.valueOf(e.getMessage())));
        }
    }

    /** The event of the object whose {@code START_OBJECT} {@code p} has just read. */
    abstract StreamEvent fields(JsonParser p) throws IOException;
}
