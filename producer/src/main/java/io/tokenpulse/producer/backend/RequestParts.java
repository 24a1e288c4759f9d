package io.tokenpulse.producer.backend;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** What building a request looks like for every backend: the endpoint check, the headers, the flags a backend cannot send. */
final class RequestParts {

    private static final JsonFactory JSON = new JsonFactory();
    private static final ObjectMapper MAPPER = new ObjectMapper(JSON);

    /** Why a newer API's backend refuses a sampling flag: {@link #refuseFlagsBut}'s {@code why}. */
    static final String NO_REQUEST_FIELD =
            "has no request field for these flags (--extra-body sets fields a server takes beyond the API)";

    /** Writes the fields of one JSON object. */
    @FunctionalInterface
    interface JsonFields {
        void write(JsonGenerator json) throws IOException;
    }

    /** A JSON object body in UTF-8. */
    static byte[] json(JsonFields fields) {
        ByteArrayBuilder body = new ByteArrayBuilder();
        try (JsonGenerator json = JSON.createGenerator(body)) {
            json.writeStartObject();
            fields.write(json);
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("writing to memory failed", e);
        }
        return body.toByteArray();
    }

    private RequestParts() {}

    /** As vLLM's asserts: the endpoint path must end in one of {@code suffixes}. */
    static void pathEndsWith(String backend, BackendSettings settings, String... suffixes) {
        String path =
                settings.endpoint().getPath() == null ? "" : settings.endpoint().getPath();
        for (String suffix : suffixes) {
            if (path.endsWith(suffix)) {
                return;
            }
        }
        throw new IllegalArgumentException("backend " + backend + " needs an endpoint path ending in '"
                + String.join("' or '", suffixes) + "', got '" + path + "'; change --endpoint");
    }

    /**
     * vLLM refuses sampling flags for every backend but the OpenAI-compatible ones (its request
     * functions hard-code them), and silently drops --logprobs: refused here too, so a run never
     * measures something other than what was asked for. {@code --ignore-eos} is left to the backend.
     */
    static void refuseSampling(String backend, BackendSettings.Sampling sampling) {
        refuseFlagsBut(
                backend,
                sampling,
                "sends vLLM's fixed sampling parameters (sampling flags only reach OpenAI-compatible backends)",
                "--ignore-eos");
    }

    /**
     * Refuses the sampling flags given ({@link BackendSettings.Sampling#givenFlags()}) but those in
     * {@code sent}: "backend {@code backend} {@code why}; remove" and the flags. Nothing when none.
     */
    static void refuseFlagsBut(String backend, BackendSettings.Sampling sampling, String why, String... sent) {
        List<String> refused = sampling.givenFlags();
        refused.removeAll(List.of(sent));
        if (!refused.isEmpty()) {
            throw new IllegalArgumentException(
                    "backend " + backend + " " + why + "; remove " + String.join(" ", refused));
        }
    }

    /**
     * {@code body} (a JSON object) with the {@code --extra-body} members set on it, replacing members of
     * the same name as vLLM's {@code payload.update(extra_body)} does; {@code body} itself when there is
     * none. Parsed and written again, once per request when the flag is given.
     */
    static byte[] withExtraBody(byte[] body, BackendSettings.Sampling sampling) {
        if (sampling.extraBody() == null) {
            return body;
        }
        try {
            ObjectNode payload = (ObjectNode) MAPPER.readTree(body);
            payload.setAll(sampling.extraBody());
            return MAPPER.writeValueAsBytes(payload);
        } catch (IOException e) {
            throw new UncheckedIOException("re-reading a request body written here failed", e);
        }
    }

    /** vLLM's client for {@code backend} never sends ignore_eos: refused rather than dropped. */
    static void refuseIgnoreEos(String backend, BackendSettings.Sampling sampling) {
        if (sampling.ignoreEos()) {
            throw new IllegalArgumentException("backend " + backend + " cannot ask the server to ignore EOS"
                    + " (vLLM's client does not send it either); remove --ignore-eos");
        }
    }

    /**
     * Content type, {@code Authorization: Bearer} when {@code withApiKey} and a key is set, the
     * extra headers, then x-request-id.
     */
    static List<HttpCall.Header> headers(
            BackendSettings settings, PromptRequest request, String contentType, boolean withApiKey) {
        List<HttpCall.Header> own = withApiKey && hasApiKey(settings)
                ? List.of(new HttpCall.Header("Authorization", "Bearer " + settings.apiKey()))
                : List.of();
        return headers(settings, request, contentType, own);
    }

    /** Whether an API key was given. */
    static boolean hasApiKey(BackendSettings settings) {
        return settings.apiKey() != null && !settings.apiKey().isBlank();
    }

    /** Content type, the API's {@code own} headers (credentials, version), the extra headers, then x-request-id. */
    static List<HttpCall.Header> headers(
            BackendSettings settings, PromptRequest request, String contentType, List<HttpCall.Header> own) {
        // Keyed by lower-case name so an extra header replaces a default one, as vLLM's
        // headers |= extra_headers does.
        Map<String, HttpCall.Header> byName = new LinkedHashMap<>();
        put(byName, "Content-Type", contentType);
        own.forEach(h -> put(byName, h.name(), h.value()));
        settings.extraHeaders().forEach((n, v) -> put(byName, n, v));
        put(byName, "x-request-id", request.requestId());
        return new ArrayList<>(byName.values());
    }

    private static void put(Map<String, HttpCall.Header> byName, String name, String value) {
        byName.put(name.toLowerCase(Locale.ROOT), new HttpCall.Header(name, value));
    }
}
