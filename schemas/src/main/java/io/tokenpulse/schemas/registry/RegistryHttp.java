package io.tokenpulse.schemas.registry;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;
import javax.net.ssl.SSLException;

/**
 * Moves JSON between this process and the registry: one request, tried against each configured
 * URL in turn until one answers. Knows nothing of what the endpoints mean; {@link
 * SchemaRegistryClient} interprets the answers.
 */
final class RegistryHttp {
    static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
    private static final String ACCEPT =
            CONTENT_TYPE + ", application/vnd.schemaregistry+json; qs=0.9, application/json; qs=0.5";
    private static final int MAX_MESSAGE_CHARS = 400;

    private final SchemaRegistrySettings settings;
    private final HttpClient http;
    private final Optional<String> authorization;
    private final ObjectMapper json;

    RegistryHttp(SchemaRegistrySettings settings, ObjectMapper json) {
        this.settings = settings;
        this.json = json;
        this.http = HttpClient.newBuilder()
                // HTTP/1.1: HTTP/2 would send an h2c upgrade on plain http, which some proxies mishandle.
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(settings.connectTimeout())
                .sslContext(settings.tlsContext())
                .build();
        this.authorization = settings.basicAuthUserInfo()
                .map(userInfo ->
                        "Basic " + Base64.getEncoder().encodeToString(userInfo.getBytes(StandardCharsets.UTF_8)))
                .or(() -> settings.bearerToken().map(token -> "Bearer " + token));
    }

    /** An answer: HTTP status, the parsed JSON body (a text node when it was not JSON), from where. */
    record Reply(int status, JsonNode body, URI url) {
        boolean ok() {
            return status >= 200 && status < 300;
        }

        /** Confluent's {@code error_code}, or 0 when the body has none. */
        int errorCode() {
            return body.path("error_code").asInt(0);
        }

        /** Confluent's {@code message}, or the body's text, on one line and of bounded length. */
        String message() {
            JsonNode message = body.path("message");
            String text = message.isTextual() ? message.asText() : body.isTextual() ? body.asText() : "";
            return oneLine(text);
        }
    }

    /**
     * Sends {@code method path} with {@code body} (null for none) to the first URL that answers.
     *
     * @throws SchemaRegistryException when no URL answers
     */
    Reply send(String method, String path, JsonNode body) {
        HttpRequest.BodyPublisher publisher = body == null
                ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(write(body), StandardCharsets.UTF_8);
        String failure = "";
        for (URI base : settings.urls()) {
            URI url = URI.create(stripTrailingSlash(base.toString()) + path);
            HttpRequest.Builder request = HttpRequest.newBuilder(url)
                    .timeout(settings.requestTimeout())
                    .header("Accept", ACCEPT)
                    .method(method, publisher);
            if (body != null) {
                request.header("Content-Type", CONTENT_TYPE);
            }
            authorization.ifPresent(value -> request.header("Authorization", value));
            try {
                HttpResponse<String> response =
                        http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
                return new Reply(response.statusCode(), parse(response.body()), base);
            } catch (IOException e) {
                failure = describe(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SchemaRegistryException(
                        "interrupted while waiting for the schema registry at " + settings.urlList(), 0, 0, e);
            }
        }
        throw new SchemaRegistryException(
                "cannot reach the schema registry at " + settings.urlList() + " (" + failure
                        + "); check --schema-registry-url",
                0,
                0,
                null);
    }

    private String describe(IOException e) {
        if (e instanceof HttpConnectTimeoutException) {
            return "no connection within " + settings.connectTimeout().toMillis() + " ms";
        }
        if (e instanceof HttpTimeoutException) {
            return "no answer within " + settings.requestTimeout().toMillis() + " ms";
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof UnresolvedAddressException) {
                return "unknown host";
            }
            if (t instanceof SSLException) {
                return "TLS failed: " + oneLine(t.getMessage()) + "; check the registry truststore";
            }
            if (t instanceof ConnectException) {
                return "connection refused";
            }
        }
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + oneLine(e.getMessage()));
    }

    private String write(JsonNode body) {
        try {
            return json.writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write a JSON tree: " + e.getMessage(), e);
        }
    }

    private JsonNode parse(String text) {
        if (text == null || text.isBlank()) {
            return MissingNode.getInstance();
        }
        try {
            return json.readTree(text);
        } catch (JsonProcessingException e) {
            // A proxy's HTML error page, for instance: keep its text for the message.
            return json.getNodeFactory().textNode(text);
        }
    }

    private static String stripTrailingSlash(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    static String oneLine(String text) {
        if (text == null) {
            return "";
        }
        String line = text.replaceAll("\\s+", " ").trim();
        return line.length() <= MAX_MESSAGE_CHARS ? line : line.substring(0, MAX_MESSAGE_CHARS) + "...";
    }
}
