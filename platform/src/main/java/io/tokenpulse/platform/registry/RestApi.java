package io.tokenpulse.platform.registry;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.tokenpulse.schemas.registry.Compatibility;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Confluent's Schema Registry REST subset over {@link RegistryState}: routes a request, reads its
 * JSON body and writes Confluent's JSON bodies and error codes
 * ({@code {"error_code": 40401, "message": "..."}}). Only AVRO schemas, no references.
 */
final class RestApi implements HttpHandler {
    static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
    private static final Logger log = LoggerFactory.getLogger(RestApi.class);
    /** Its stack traces: hidden unless --verbose (simplelogger.properties, tokenpulse.stacktraces). */
    private static final Logger TRACES = LoggerFactory.getLogger("tokenpulse.stacktraces." + RestApi.class.getName());

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A response body that is JSON already (a schema's own text). */
    private record RawJson(String text) {}

    private record SubjectVersion(String subject, int version) {}

    private record Request(List<String> params, Map<String, String> query, byte[] body) {
        String param(int index) {
            return params.get(index);
        }

        boolean flag(String name) {
            return Boolean.parseBoolean(query.get(name));
        }

        JsonNode json() throws RegistryException {
            try {
                JsonNode node = JSON.readTree(body);
                if (node == null || !node.isObject()) {
                    throw new RegistryException(400, "Request body must be a JSON object");
                }
                return node;
            } catch (JsonProcessingException e) {
                throw new RegistryException(400, "Request body is not valid JSON: " + e.getOriginalMessage());
            } catch (IOException e) {
                throw new RegistryException(400, "Request body could not be read: " + e.getMessage());
            }
        }

        /** The {@code schema} of a register, lookup or compatibility body; AVRO only, no references. */
        String schema() throws RegistryException {
            JsonNode body = json();
            String type = body.path("schemaType").asText("AVRO");
            if (!type.equals("AVRO")) {
                throw new RegistryException(
                        RegistryException.INVALID_SCHEMA, "Only AVRO schemas are supported, not schemaType " + type);
            }
            if (!body.path("references").isMissingNode()
                    && !body.path("references").isEmpty()) {
                throw new RegistryException(RegistryException.INVALID_SCHEMA, "Schema references are not supported");
            }
            JsonNode schema = body.get("schema");
            return schema == null || schema.isNull() ? null : schema.asText();
        }

        /** The {@code compatibility} of a PUT /config body. */
        Compatibility level() throws RegistryException {
            JsonNode level = json().get("compatibility");
            return CompatibilityRules.parse(level == null || level.isNull() ? null : level.asText());
        }
    }

    @FunctionalInterface
    private interface Endpoint {
        Object handle(Request request) throws RegistryException;
    }

    /** One path pattern; {@code *} matches one path segment and becomes a parameter. */
    private record Route(String method, List<String> pattern, Endpoint endpoint) {
        List<String> match(List<String> segments) {
            if (segments.size() != pattern.size()) {
                return null;
            }
            List<String> params = new ArrayList<>();
            for (int i = 0; i < pattern.size(); i++) {
                if (pattern.get(i).equals("*")) {
                    params.add(segments.get(i));
                } else if (!pattern.get(i).equals(segments.get(i))) {
                    return null;
                }
            }
            return params;
        }
    }

    private final List<Route> routes;

    RestApi(RegistryState state) {
        this.routes = List.of(
                route("GET", "", r -> Map.of()),
                route("GET", "schemas/types", r -> List.of("AVRO")),
                route("GET", "schemas/ids/*", r -> Map.of("schema", state.schema(schemaId(r.param(0))))),
                route(
                        "GET",
                        "schemas/ids/*/versions",
                        r -> state.versionsOf(schemaId(r.param(0))).stream()
                                .map(v -> new SubjectVersion(v.subject(), v.version()))
                                .toList()),
                route("GET", "subjects", r -> state.subjects()),
                route("POST", "subjects/*", r -> state.lookup(r.param(0), r.schema())),
                route("DELETE", "subjects/*", r -> state.deleteSubject(r.param(0))),
                route("GET", "subjects/*/versions", r -> state.versions(r.param(0))),
                route("POST", "subjects/*/versions", r -> Map.of("id", state.register(r.param(0), r.schema()))),
                route("GET", "subjects/*/versions/*", r -> state.version(r.param(0), r.param(1))),
                route(
                        "GET",
                        "subjects/*/versions/*/schema",
                        r -> new RawJson(state.version(r.param(0), r.param(1)).schema())),
                route("POST", "compatibility/subjects/*/versions/*", r -> {
                    RegistryState.Verdict verdict = state.checkCompatibility(r.param(0), r.param(1), r.schema());
                    Map<String, Object> body = new LinkedHashMap<>();
                    body.put("is_compatible", verdict.compatible());
                    if (r.flag("verbose")) {
                        body.put("messages", verdict.messages());
                    }
                    return body;
                }),
                route("GET", "config", r -> Map.of("compatibilityLevel", state.globalLevel())),
                route("PUT", "config", r -> {
                    Compatibility level = r.level();
                    state.setLevel(null, level);
                    return Map.of("compatibility", level);
                }),
                route(
                        "GET",
                        "config/*",
                        r -> Map.of("compatibilityLevel", state.subjectLevel(r.param(0), r.flag("defaultToGlobal")))),
                route("PUT", "config/*", r -> {
                    Compatibility level = r.level();
                    state.setLevel(r.param(0), level);
                    return Map.of("compatibility", level);
                }));
    }

    private static Route route(String method, String pattern, Endpoint endpoint) {
        List<String> segments = pattern.isEmpty() ? List.of() : List.of(pattern.split("/"));
        return new Route(method, segments, endpoint);
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String method = exchange.getRequestMethod();
            String path = exchange.getRequestURI().getRawPath();
            int status = 200;
            Object body;
            try {
                body = dispatch(method, segments(path), exchange);
            } catch (RegistryException e) {
                status = e.httpStatus();
                body = error(e.errorCode(), e.getMessage());
            } catch (RuntimeException e) {
                log.error("Schema registry failed on {} {}: {}", method, path, e.toString());
                TRACES.warn("Schema registry failed on {} {}", method, path, e);
                status = 500;
                body = error(500, "Internal Server Error: " + e);
            }
            log.debug("{} {} -> {}", method, path, status);
            byte[] bytes = body instanceof RawJson raw
                    ? raw.text().getBytes(StandardCharsets.UTF_8)
                    : JSON.writeValueAsBytes(body);
            exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
            exchange.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    private Object dispatch(String method, List<String> segments, HttpExchange exchange)
            throws RegistryException, IOException {
        boolean pathKnown = false;
        for (Route route : routes) {
            List<String> params = route.match(segments);
            if (params == null) {
                continue;
            }
            pathKnown = true;
            if (route.method().equals(method)) {
                byte[] body = exchange.getRequestBody().readAllBytes();
                return route.endpoint()
                        .handle(new Request(
                                params, query(exchange.getRequestURI().getRawQuery()), body));
            }
        }
        throw pathKnown
                ? new RegistryException(405, "HTTP 405 Method Not Allowed")
                : new RegistryException(404, "HTTP 404 Not Found");
    }

    private static Map<String, Object> error(int errorCode, String message) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error_code", errorCode);
        body.put("message", message);
        return body;
    }

    /** Path segments, each percent-decoded (subjects may contain any character). */
    private static List<String> segments(String rawPath) {
        return Arrays.stream(rawPath.split("/"))
                .filter(segment -> !segment.isEmpty())
                .map(segment -> URLDecoder.decode(segment, StandardCharsets.UTF_8))
                .toList();
    }

    private static Map<String, String> query(String rawQuery) {
        Map<String, String> query = new HashMap<>();
        if (rawQuery != null) {
            for (String pair : rawQuery.split("&")) {
                int eq = pair.indexOf('=');
                String name = eq < 0 ? pair : pair.substring(0, eq);
                String value = eq < 0 ? "" : pair.substring(eq + 1);
                query.put(
                        URLDecoder.decode(name, StandardCharsets.UTF_8),
                        URLDecoder.decode(value, StandardCharsets.UTF_8));
            }
        }
        return query;
    }

    private static int schemaId(String text) throws RegistryException {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new RegistryException(RegistryException.SCHEMA_NOT_FOUND, "Schema " + text + " not found");
        }
    }
}
