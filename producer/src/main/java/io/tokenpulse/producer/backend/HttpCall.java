package io.tokenpulse.producer.backend;

import io.tokenpulse.producer.http.StreamRequest;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An HTTP POST ready to write: the URL, the headers in order and the JSON body in UTF-8.
 * {@link #toString()} shows neither the body nor the value of {@code Authorization} or {@code x-api-key}.
 *
 * @param uri where to POST
 * @param headers request headers, without {@code Host} and {@code Content-Length}, which belong
 *     to the HTTP client
 * @param body the UTF-8 JSON payload; not copied, do not modify
 */
public record HttpCall(URI uri, List<Header> headers, byte[] body) {

    public HttpCall {
        headers = List.copyOf(headers);
    }

    /** The value of the first header named {@code name} (case-insensitive), or null. */
    public String header(String name) {
        return headers.stream()
                .filter(h -> h.name().equalsIgnoreCase(name))
                .map(Header::value)
                .findFirst()
                .orElse(null);
    }

    /** The same POST as the streaming client takes it. */
    public StreamRequest toStreamRequest() {
        Map<String, String> byName = new LinkedHashMap<>();
        headers.forEach(h -> byName.put(h.name(), h.value()));
        return new StreamRequest(uri, byName, body);
    }

    @Override
    public String toString() {
        return "HttpCall[POST " + uri + ", headers=" + headers + ", body=" + body.length + " bytes]";
    }

    /** One request header; {@link #toString()} hides the value of the credential headers. */
    public record Header(String name, String value) {

        @Override
        public String toString() {
            boolean secret = name.equalsIgnoreCase("authorization") || name.equalsIgnoreCase("x-api-key");
            return name + ": " + (secret ? "***" : value);
        }
    }
}
