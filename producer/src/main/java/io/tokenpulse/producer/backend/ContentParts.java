package io.tokenpulse.producer.backend;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;

/**
 * The prompt with the dataset's images as a {@code content} array: a text part, then a part per
 * image, the form chat, the Responses API and the Messages API share under their own type names.
 */
final class ContentParts {

    /** Writes an image part's members after its {@code type}. */
    @FunctionalInterface
    interface ImagePart {
        void write(JsonGenerator json, String url) throws IOException;
    }

    private ContentParts() {}

    static void write(JsonGenerator json, PromptRequest request, String textType, String imageType, ImagePart image)
            throws IOException {
        json.writeArrayFieldStart("content");
        json.writeStartObject();
        json.writeStringField("type", textType);
        json.writeStringField("text", request.prompt());
        json.writeEndObject();
        for (String url : request.imageUrls()) {
            json.writeStartObject();
            json.writeStringField("type", imageType);
            image.write(json, url);
            json.writeEndObject();
        }
        json.writeEndArray();
    }
}
