package io.tokenpulse.producer.backend;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.util.List;

/**
 * What the pooling backends share (embeddings, rerank, score, as vLLM's {@code _run_pooling_request}
 * sends them): one JSON POST of {@code model}, the backend's input fields and
 * {@code truncate_prompt_tokens: -1} (vLLM sends it so that a model of short context truncates
 * instead of refusing), {@code --extra-body} merged last; one JSON answer, not streamed, read by a
 * {@link PoolingAnswerReader}. The endpoint must be of the backend's family (or the profiler's).
 *
 * <p>vLLM drops the sampling flags for pooling backends without a word; here they are refused before
 * the run, with {@code --ignore-eos} and {@code --logprobs}, so a run never seems to measure what it
 * did not send. Stateless and thread-safe.
 */
abstract class PoolingBackend implements Backend {

    private final String name;
    private final String examplePath;
    private final EventParser reader;

    /**
     * @param examplePath the API's usual path ({@code /v1/embeddings}, ...): an endpoint path must end
     *     in its last segment, and the message of a wrong one suggests it
     * @param resultsField the array a good answer carries ({@code data} or {@code results})
     */
    PoolingBackend(String name, String examplePath, String resultsField) {
        this.name = name;
        this.examplePath = examplePath;
        this.reader = new PoolingAnswerReader(resultsField);
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final void check(BackendSettings settings) {
        String path =
                settings.endpoint().getPath() == null ? "" : settings.endpoint().getPath();
        String suffix = examplePath.substring(examplePath.lastIndexOf('/') + 1);
        // as vLLM's _validate_api_url: the API's own path, or the profiler's
        if (!path.endsWith(suffix) && !path.endsWith("profile")) {
            throw new IllegalArgumentException("backend " + name + " needs an endpoint path ending in '" + suffix
                    + "', got '" + path + "'; change --endpoint, e.g. --endpoint " + examplePath);
        }
        // sampling, --ignore-eos and --logprobs have no meaning for a model that generates nothing
        RequestParts.refuseFlagsBut(
                name,
                settings.sampling(),
                "asks a pooling model for one answer and generates no tokens",
                "--extra-body");
    }

    @Override
    public final HttpCall buildRequest(BackendSettings settings, PromptRequest request) {
        check(settings);
        byte[] body = RequestParts.json(json -> {
            json.writeStringField("model", request.modelOr(settings.model()));
            writeInput(json, request);
            json.writeNumberField("truncate_prompt_tokens", -1);
        });
        return new HttpCall(
                settings.endpoint(),
                RequestParts.headers(settings, request, "application/json", true),
                RequestParts.withExtraBody(body, settings.sampling()));
    }

    /** The API's input fields, made from the dataset's prompt (its texts, when a list). */
    abstract void writeInput(JsonGenerator json, PromptRequest request) throws IOException;

    /** {@code texts} as a JSON array field. */
    static void writeTexts(JsonGenerator json, String field, List<String> texts) throws IOException {
        json.writeArrayFieldStart(field);
        for (String text : texts) {
            json.writeString(text);
        }
        json.writeEndArray();
    }

    @Override
    public final ResponseTracker newResponse() {
        return ResponseTracker.pooling(reader);
    }

    @Override
    public String toString() {
        return "Backend[" + name + "]";
    }
}
