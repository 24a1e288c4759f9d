package io.tokenpulse.producer.backend;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.util.List;

/**
 * What the backends of the newer APIs whose stream events are typed share (OpenAI Responses,
 * Anthropic Messages): the endpoint check, the refusal of the sampling flags the API has no field
 * for, {@code model} first in the body and {@code --extra-body} merged last, and a response read by
 * a {@link TypedEventReader} that is complete only with the API's closing event.
 */
abstract class TypedEventBackend implements Backend {

    private final String name;
    private final String pathSuffix;
    private final EventParser reader;
    private final String closingEvent;
    private final String[] flagsSent;

    /**
     * @param pathSuffix how the endpoint's path must end
     * @param closingEvent the event type a complete stream ends with
     * @param flagsSent the sampling flags the API has a field for (and {@code --extra-body}); the others are
     *     refused
     */
    TypedEventBackend(
            String name, String pathSuffix, TypedEventReader reader, String closingEvent, String... flagsSent) {
        this.name = name;
        this.pathSuffix = pathSuffix;
        this.reader = reader;
        this.closingEvent = closingEvent;
        this.flagsSent = flagsSent;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final void check(BackendSettings settings) {
        RequestParts.pathEndsWith(name, settings, pathSuffix);
        RequestParts.refuseFlagsBut(name, settings.sampling(), RequestParts.NO_REQUEST_FIELD, flagsSent);
    }

    @Override
    public final HttpCall buildRequest(BackendSettings settings, PromptRequest request) {
        check(settings);
        byte[] body = RequestParts.json(json -> {
            json.writeStringField("model", request.modelOr(settings.model()));
            writeFields(json, settings.sampling(), request);
        });
        return new HttpCall(
                settings.endpoint(), headers(settings, request), RequestParts.withExtraBody(body, settings.sampling()));
    }

    /** The API's fields after {@code model}. */
    abstract void writeFields(JsonGenerator json, BackendSettings.Sampling sampling, PromptRequest request)
            throws IOException;

    /** The request's headers, with the API's way of sending the key. */
    abstract List<HttpCall.Header> headers(BackendSettings settings, PromptRequest request);

    @Override
    public final ResponseTracker newResponse() {
        // Events after the first delta move last, as for chat: E2EL runs to the closing event.
        return new ResponseTracker(reader, true, true, closingEvent);
    }

    @Override
    public String toString() {
        return "Backend[" + name + "]";
    }
}
