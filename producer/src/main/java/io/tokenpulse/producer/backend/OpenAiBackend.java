package io.tokenpulse.producer.backend;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * What the OpenAI-style backends share: the endpoint check, the headers, the streaming and
 * sampling fields of the payload, and the event reader.
 */
abstract class OpenAiBackend implements Backend {

    private static final JsonFactory JSON = new JsonFactory();

    private final String name;
    private final String pathSuffix;
    private final EventReader reader;

    OpenAiBackend(String name, String pathSuffix, EventReader.TextField textField) {
        this.name = name;
        this.pathSuffix = pathSuffix;
        this.reader = new EventReader(textField);
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public void check(BackendSettings settings) {
        // As vLLM: the path must name the API this backend speaks, or the profiler endpoint.
        RequestParts.pathEndsWith(name, settings, pathSuffix, "profile");
    }

    @Override
    public final HttpCall buildRequest(BackendSettings settings, PromptRequest request) {
        check(settings);
        ByteArrayBuilder body = new ByteArrayBuilder();
        try (JsonGenerator json = JSON.createGenerator(body)) {
            json.writeStartObject();
            json.writeStringField("model", request.modelOr(settings.model()));
            writeInput(json, settings, request);
            json.writeBooleanField("stream", true);
            json.writeObjectFieldStart("stream_options");
            json.writeBooleanField("include_usage", true);
            json.writeEndObject();
            writeSampling(json, settings.sampling());
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("writing to memory failed", e);
        }
        return new HttpCall(
                settings.endpoint(),
                RequestParts.headers(settings, request, "application/json", true),
                RequestParts.withExtraBody(body.toByteArray(), settings.sampling()));
    }

    /** The prompt, temperature and output-length fields, which differ between the APIs. */
    abstract void writeInput(JsonGenerator json, BackendSettings settings, PromptRequest request) throws IOException;

    /** Sampling fields after the common ones; backends add their own after calling this. */
    void writeSampling(JsonGenerator json, BackendSettings.Sampling sampling) throws IOException {
        if (sampling.ignoreEos()) {
            json.writeBooleanField("ignore_eos", true);
        }
        if (sampling.topP() != null) {
            json.writeNumberField("top_p", sampling.topP());
        }
        if (sampling.topK() != null) {
            json.writeNumberField("top_k", sampling.topK());
        }
        if (sampling.minP() != null) {
            json.writeNumberField("min_p", sampling.minP());
        }
        if (sampling.frequencyPenalty() != null) {
            json.writeNumberField("frequency_penalty", sampling.frequencyPenalty());
        }
        if (sampling.presencePenalty() != null) {
            json.writeNumberField("presence_penalty", sampling.presencePenalty());
        }
        if (sampling.repetitionPenalty() != null) {
            json.writeNumberField("repetition_penalty", sampling.repetitionPenalty());
        }
    }

    @Override
    public final ResponseTracker newResponse() {
        return new ResponseTracker(reader, anyEventMarksLast(), true);
    }

    /** Whether events without choices (chat's usage-only tail) move {@code last}. */
    abstract boolean anyEventMarksLast();

    @Override
    public String toString() {
        return "Backend[" + name + "]";
    }
}
