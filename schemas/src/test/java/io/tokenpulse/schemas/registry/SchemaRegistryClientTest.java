package io.tokenpulse.schemas.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.tokenpulse.schemas.avro.Chunk;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.avro.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The REST client against a stub HTTP server that answers as Confluent's registry does. */
class SchemaRegistryClientTest {
    private static final String SUBJECT = "tokenpulse.chunks-value";
    private static final Schema SCHEMA = Chunk.getClassSchema();
    private static final ObjectMapper JSON = new ObjectMapper();

    private HttpServer server;
    private String url;
    private final Map<String, Answer> answers = new ConcurrentHashMap<>();
    private final List<Seen> seen = new CopyOnWriteArrayList<>();

    record Answer(int status, String body) {}

    record Seen(String method, String path, String contentType, String authorization, String body) {}

    @BeforeEach
    void startStub() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            String query = exchange.getRequestURI().getRawQuery();
            String path = exchange.getRequestURI().getRawPath() + (query == null ? "" : "?" + query);
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            seen.add(new Seen(
                    exchange.getRequestMethod(),
                    path,
                    exchange.getRequestHeaders().getFirst("Content-Type"),
                    exchange.getRequestHeaders().getFirst("Authorization"),
                    body));
            Answer answer = answers.getOrDefault(
                    exchange.getRequestMethod() + " " + path,
                    new Answer(404, "{\"error_code\":404,\"message\":\"HTTP 404 Not Found\"}"));
            byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/vnd.schemaregistry.v1+json");
            exchange.sendResponseHeaders(answer.status(), bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        url = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @AfterEach
    void stopStub() {
        server.stop(0);
    }

    private void answer(String request, int status, String body) {
        answers.put(request, new Answer(status, body));
    }

    private SchemaRegistryClient client() {
        return new SchemaRegistryClient(SchemaRegistrySettings.of(url));
    }

    private static String schemaJson(Schema schema) throws IOException {
        return JSON.writeValueAsString(schema.toString());
    }

    @Test
    void registerPostsTheSchemaAsConfluentJsonAndCachesTheId() throws IOException {
        answer("POST /subjects/" + SUBJECT + "/versions", 200, "{\"id\":7}");
        SchemaRegistryClient client = client();

        assertThat(client.register(SUBJECT, SCHEMA)).isEqualTo(7);
        assertThat(client.register(SUBJECT, SCHEMA)).isEqualTo(7);

        assertThat(seen).hasSize(1);
        Seen request = seen.get(0);
        assertThat(request.method()).isEqualTo("POST");
        assertThat(request.contentType()).isEqualTo("application/vnd.schemaregistry.v1+json");
        assertThat(new Schema.Parser()
                        .parse(JSON.readTree(request.body()).get("schema").asText()))
                .isEqualTo(SCHEMA);
        assertThat(client.schemaById(7))
                .as("registered schema is known by id too")
                .isEqualTo(SCHEMA);
        assertThat(seen).hasSize(1);
    }

    @Test
    void incompatibleSchemaNamesSubjectLatestVersionAndTheRegistrysReason() throws IOException {
        answer(
                "POST /subjects/" + SUBJECT + "/versions",
                409,
                "{\"error_code\":409,\"message\":"
                        + "\"Schema being registered is incompatible with an earlier schema for subject"
                        + " \\\"tokenpulse.chunks-value\\\",\\n details: [READER_FIELD_MISSING_DEFAULT bytes]\"}");
        answer(
                "GET /subjects/" + SUBJECT + "/versions/latest",
                200,
                "{\"subject\":\"" + SUBJECT + "\",\"version\":3,\"id\":12,\"schema\":" + schemaJson(SCHEMA) + "}");

        assertThatThrownBy(() -> client().register(SUBJECT, SCHEMA))
                .isInstanceOfSatisfying(SchemaRegistryException.class, e -> {
                    assertThat(e.httpStatus()).isEqualTo(409);
                    assertThat(e.errorCode()).isEqualTo(409);
                })
                .hasMessage("schema for subject tokenpulse.chunks-value is incompatible with version 3:"
                        + " Schema being registered is incompatible with an earlier schema for subject"
                        + " \"tokenpulse.chunks-value\", details: [READER_FIELD_MISSING_DEFAULT bytes]");
    }

    @Test
    void unknownSchemaIdIs404WithConfluentsErrorCode() {
        answer("GET /schemas/ids/42", 404, "{\"error_code\":40403,\"message\":\"Schema 42 not found\"}");

        assertThatThrownBy(() -> client().schemaById(42))
                .isInstanceOfSatisfying(SchemaRegistryException.class, e -> {
                    assertThat(e.httpStatus()).isEqualTo(404);
                    assertThat(e.errorCode()).isEqualTo(40403);
                })
                .hasMessage("schema id 42 is not known to the schema registry at " + url
                        + " (Schema 42 not found); was the record written against another registry?");
    }

    @Test
    void schemaByIdIsFetchedOnce() throws IOException {
        answer("GET /schemas/ids/3", 200, "{\"schema\":" + schemaJson(SCHEMA) + "}");
        SchemaRegistryClient client = client();

        assertThat(client.schemaById(3)).isEqualTo(SCHEMA);
        assertThat(client.schemaById(3)).isEqualTo(SCHEMA);
        assertThat(seen).hasSize(1);
    }

    @Test
    void nonAvroSchemaIsRefusedByName() {
        answer("GET /schemas/ids/5", 200, "{\"schemaType\":\"PROTOBUF\",\"schema\":\"syntax = \\\"proto3\\\";\"}");

        assertThatThrownBy(() -> client().schemaById(5))
                .isInstanceOf(SchemaRegistryException.class)
                .hasMessageContaining("is a PROTOBUF schema; TokenPulse reads only Avro");
    }

    @Test
    void lookupOfAnUnknownSubjectOrSchemaIsEmpty() {
        answer("POST /subjects/" + SUBJECT, 404, "{\"error_code\":40401,\"message\":\"Subject not found\"}");
        answer("POST /subjects/other-value", 404, "{\"error_code\":40403,\"message\":\"Schema not found\"}");
        answer(
                "GET /subjects/" + SUBJECT + "/versions/latest",
                404,
                "{\"error_code\":40401,\"message\":\"Subject not found\"}");
        SchemaRegistryClient client = client();

        assertThat(client.idOf(SUBJECT, SCHEMA)).isEmpty();
        assertThat(client.idOf("other-value", SCHEMA)).isEmpty();
        assertThat(client.latest(SUBJECT)).isEmpty();
    }

    @Test
    void lookupAndLatestReadIdVersionAndSchema() throws IOException {
        String registered =
                "{\"subject\":\"" + SUBJECT + "\",\"version\":2,\"id\":9,\"schema\":" + schemaJson(SCHEMA) + "}";
        answer("POST /subjects/" + SUBJECT, 200, registered);
        answer("GET /subjects/" + SUBJECT + "/versions/latest", 200, registered);
        SchemaRegistryClient client = client();

        assertThat(client.idOf(SUBJECT, SCHEMA)).hasValue(9);
        assertThat(client.latest(SUBJECT)).contains(new RegisteredSchema(SUBJECT, 9, 2, SCHEMA));
    }

    @Test
    void subjectIsPercentEncodedInThePath() {
        answer("GET /subjects/a%2Fb%20c/versions/latest", 404, "{\"error_code\":40401,\"message\":\"x\"}");

        assertThat(client().latest("a/b c")).isEmpty();
        assertThat(seen.get(0).path()).isEqualTo("/subjects/a%2Fb%20c/versions/latest");
    }

    @Test
    void compatibilityCheckReturnsTheRegistrysVerdictAndReasons() {
        answer(
                "POST /compatibility/subjects/" + SUBJECT + "/versions/latest?verbose=true",
                200,
                "{\"is_compatible\":false,\"messages\":[\"READER_FIELD_MISSING_DEFAULT at /fields/8\"]}");
        answer(
                "POST /compatibility/subjects/new-value/versions/latest?verbose=true",
                404,
                "{\"error_code\":40401,\"message\":\"Subject 'new-value' not found.\"}");
        SchemaRegistryClient client = client();

        assertThat(client.testCompatibility(SUBJECT, SCHEMA))
                .isEqualTo(new CompatibilityResult(false, List.of("READER_FIELD_MISSING_DEFAULT at /fields/8")));
        assertThat(client.testCompatibility("new-value", SCHEMA))
                .as("a subject with no versions accepts any schema")
                .isEqualTo(new CompatibilityResult(true, List.of()));
    }

    @Test
    void configIsReadAndWrittenGloballyAndPerSubject() throws IOException {
        answer("GET /config", 200, "{\"compatibilityLevel\":\"BACKWARD\"}");
        answer(
                "GET /config/" + SUBJECT,
                404,
                "{\"error_code\":40408,\"message\":\"Subject does not have subject-level compatibility configured\"}");
        answer("GET /config/other-value", 200, "{\"compatibilityLevel\":\"FULL_TRANSITIVE\"}");
        answer("PUT /config", 200, "{\"compatibility\":\"NONE\"}");
        answer("PUT /config/" + SUBJECT, 200, "{\"compatibility\":\"FORWARD\"}");
        SchemaRegistryClient client = client();

        assertThat(client.compatibility()).isEqualTo(Compatibility.BACKWARD);
        assertThat(client.compatibility(SUBJECT)).isEmpty();
        assertThat(client.compatibility("other-value")).contains(Compatibility.FULL_TRANSITIVE);
        client.setCompatibility(Compatibility.NONE);
        client.setCompatibility(SUBJECT, Compatibility.FORWARD);

        assertThat(seen)
                .filteredOn(s -> s.method().equals("PUT"))
                .extracting(s -> s.path() + " " + s.body())
                .containsExactly(
                        "/config {\"compatibility\":\"NONE\"}",
                        "/config/" + SUBJECT + " {\"compatibility\":\"FORWARD\"}");
    }

    @Test
    void unauthorizedSaysToCheckCredentialsWithoutPrintingThem() {
        answer("GET /schemas/ids/1", 401, "{\"error_code\":401,\"message\":\"Unauthorized\"}");
        SchemaRegistryClient client =
                new SchemaRegistryClient(SchemaRegistrySettings.of(url).withBasicAuth("alice:s3cret-pw"));

        assertThatThrownBy(() -> client.schemaById(1))
                .isInstanceOfSatisfying(
                        SchemaRegistryException.class,
                        e -> assertThat(e.httpStatus()).isEqualTo(401))
                .hasMessage("the schema registry at " + url + " refused to read schema id 1 (HTTP 401);"
                        + " check the registry credentials")
                .message()
                .doesNotContain("s3cret-pw");
    }

    @Test
    void forbiddenSaysToCheckCredentialsToo() {
        answer("GET /config", 403, "{\"error_code\":40301,\"message\":\"User cannot access the resource.\"}");

        assertThatThrownBy(() -> client().compatibility())
                .isInstanceOfSatisfying(SchemaRegistryException.class, e -> {
                    assertThat(e.httpStatus()).isEqualTo(403);
                    assertThat(e.errorCode()).isEqualTo(40301);
                })
                .hasMessageEndingWith("(HTTP 403); check the registry credentials");
    }

    @Test
    void basicAuthHeaderIsSentAndNeverPrinted() {
        answer("GET /config", 200, "{\"compatibilityLevel\":\"BACKWARD\"}");
        SchemaRegistrySettings settings = SchemaRegistrySettings.of(url).withBasicAuth("alice:s3cret-pw");
        SchemaRegistryClient client = new SchemaRegistryClient(settings);

        client.compatibility();

        assertThat(seen.get(0).authorization())
                .isEqualTo("Basic "
                        + Base64.getEncoder().encodeToString("alice:s3cret-pw".getBytes(StandardCharsets.UTF_8)));
        assertThat(client.toString()).contains("alice").doesNotContain("s3cret-pw");
        assertThat(settings.toString()).doesNotContain("s3cret-pw");
    }

    @Test
    void bearerTokenHeaderIsSentAndNeverPrinted() {
        answer("GET /config", 200, "{\"compatibilityLevel\":\"BACKWARD\"}");
        answer("GET /schemas/ids/8", 500, "{\"error_code\":50001,\"message\":\"Error in the backend\"}");
        SchemaRegistryClient client =
                new SchemaRegistryClient(SchemaRegistrySettings.of(url).withBearerToken("tok-987xyz"));

        client.compatibility();

        assertThat(seen.get(0).authorization()).isEqualTo("Bearer tok-987xyz");
        assertThat(client.toString()).doesNotContain("tok-987xyz");
        assertThatThrownBy(() -> client.schemaById(8))
                .hasMessage("cannot read schema id 8: the schema registry at " + url
                        + " answered HTTP 500 (error 50001): Error in the backend")
                .message()
                .doesNotContain("tok-987xyz");
    }

    @Test
    void connectionRefusedNamesTheUrlAndTheFlag() throws IOException {
        String closed = "http://127.0.0.1:" + freePort();
        SchemaRegistryClient client =
                new SchemaRegistryClient(SchemaRegistrySettings.of(closed).withBasicAuth("alice:s3cret-pw"));

        assertThatThrownBy(() -> client.register(SUBJECT, SCHEMA))
                .isInstanceOfSatisfying(
                        SchemaRegistryException.class,
                        e -> assertThat(e.httpStatus()).isZero())
                .hasMessage("cannot reach the schema registry at " + closed
                        + " (connection refused); check --schema-registry-url");
    }

    @Test
    void nextUrlIsTriedWhenOneCannotBeReached() throws IOException {
        answer("GET /schemas/ids/3", 200, "{\"schema\":" + schemaJson(SCHEMA) + "}");
        String closed = "http://127.0.0.1:" + freePort();
        SchemaRegistryClient client = new SchemaRegistryClient(SchemaRegistrySettings.of(closed + "," + url + "/"));

        assertThat(client.schemaById(3)).isEqualTo(SCHEMA);
        assertThat(seen).extracting(Seen::path).containsExactly("/schemas/ids/3");
    }

    @Test
    void nonJsonErrorBodyIsShownOnOneLine() {
        answer("GET /config", 502, "<html>\n<body>Bad Gateway</body>\n</html>");

        assertThatThrownBy(() -> client().compatibility())
                .hasMessage("cannot read the compatibility level: the schema registry at " + url
                        + " answered HTTP 502: <html> <body>Bad Gateway</body> </html>");
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
