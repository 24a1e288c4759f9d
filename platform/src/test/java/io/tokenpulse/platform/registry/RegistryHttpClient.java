package io.tokenpulse.platform.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;

/** Plain HTTP against the registry, so tests see exactly the status, headers and JSON on the wire. */
final class RegistryHttpClient {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();
    private final URI base;

    record Reply(int status, String contentType, String text) {
        JsonNode json() {
            try {
                return JSON.readTree(text);
            } catch (IOException e) {
                throw new UncheckedIOException("not JSON: " + text, e);
            }
        }

        int errorCode() {
            return json().path("error_code").asInt();
        }
    }

    RegistryHttpClient(URI base) {
        this.base = base;
    }

    Reply get(String path) {
        return send("GET", path, null);
    }

    Reply delete(String path) {
        return send("DELETE", path, null);
    }

    /** POST or PUT of a JSON object built from {@code body}. */
    Reply send(String method, String path, Map<String, ?> body) {
        try {
            return sendRaw(method, path, body == null ? null : JSON.writeValueAsString(body));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Reply sendRaw(String method, String path, String body) {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(base.resolve(path)).header("Accept", "application/vnd.schemaregistry.v1+json");
        if (body == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", "application/vnd.schemaregistry.v1+json")
                    .method(method, HttpRequest.BodyPublishers.ofString(body));
        }
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Reply(
                    response.statusCode(),
                    response.headers().firstValue("Content-Type").orElse(""),
                    response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    Reply register(String subject, String schema) {
        return send("POST", "/subjects/" + subject + "/versions", Map.of("schema", schema));
    }
}
