package io.tokenpulse.producer.http;

import java.net.URI;
import java.util.Map;
import java.util.Objects;

/**
 * One HTTP/1.1 POST whose response is streamed.
 *
 * @param uri     http:// or https:// URL of the endpoint
 * @param headers extra request headers (authorization, x-request-id, ...); never logged
 * @param body    request body, sent as application/json unless {@code headers} give a content-type
 */
public record StreamRequest(URI uri, Map<String, String> headers, byte[] body) {

    public StreamRequest {
        Objects.requireNonNull(uri, "uri");
        Objects.requireNonNull(body, "body");
        headers = Map.copyOf(headers);
        if (!("http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme()))
                || uri.getHost() == null) {
            throw new IllegalArgumentException(
                    "the streaming client speaks http://host:port and https://host:port URLs, got '" + uri + "'");
        }
    }

    public static StreamRequest postJson(URI uri, byte[] body) {
        return new StreamRequest(uri, Map.of(), body);
    }

    /** The request target: path plus query. */
    String target() {
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        return uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
    }
}
