package io.tokenpulse.platform.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.tokenpulse.platform.registry.RegistryHttpClient.Reply;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Confluent REST conformance of the registry over an in-memory store: bodies, ids, error codes. */
class LocalSchemaRegistryTest {
    private static final String V1 =
            record("{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"tokens\",\"type\":\"int\"}");
    /** V1 plus an optional field with a default: BACKWARD-compatible. */
    private static final String V2_OPTIONAL =
            record("{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"tokens\",\"type\":\"int\"},"
                    + "{\"name\":\"unit\",\"type\":[\"null\",\"string\"],\"default\":null}");
    /** V1 plus a required field without default: new readers cannot read V1 data. */
    private static final String V2_REQUIRED =
            record("{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"tokens\",\"type\":\"int\"},"
                    + "{\"name\":\"count\",\"type\":\"int\"}");
    /** V1 without {@code tokens}: old readers miss it and it has no default. */
    private static final String V2_REMOVED = record("{\"name\":\"id\",\"type\":\"string\"}");

    private final InMemorySchemaStore store = new InMemorySchemaStore();
    private LocalSchemaRegistry registry;
    private RegistryHttpClient http;

    private static String record(String fields) {
        return "{\"type\":\"record\",\"name\":\"Reading\",\"namespace\":\"test\",\"fields\":[" + fields + "]}";
    }

    private static String canonical(String schema) {
        return new Schema.Parser().parse(schema).toString();
    }

    @BeforeEach
    void start() throws IOException {
        registry = LocalSchemaRegistry.start(store, new InetSocketAddress("127.0.0.1", 0));
        http = new RegistryHttpClient(registry.url());
    }

    @AfterEach
    void stop() {
        registry.close();
    }

    @Test
    void bindsLoopbackOnAFreePort() {
        assertThat(registry.url().getHost()).isEqualTo("127.0.0.1");
        assertThat(registry.port()).isPositive();
    }

    @Test
    void registeringTheSameSchemaAgainReturnsTheSameIdAndNoNewVersion() {
        Reply first = http.register("a-value", V1);
        // Same schema, other whitespace: Avro's canonical text is what identifies it.
        Reply again = http.register("a-value", V1.replace(",", ", "));

        assertThat(first.status()).isEqualTo(200);
        assertThat(first.contentType()).isEqualTo("application/vnd.schemaregistry.v1+json");
        assertThat(first.json().get("id").asInt()).isEqualTo(1);
        assertThat(again.json().get("id").asInt()).isEqualTo(1);
        assertThat(http.get("/subjects/a-value/versions").text()).isEqualTo("[1]");
    }

    @Test
    void idsAreGlobalAndTheSameSchemaUnderAnotherSubjectKeepsItsId() {
        int a = http.register("a-value", V1).json().get("id").asInt();
        int b = http.register("b-value", V2_OPTIONAL).json().get("id").asInt();
        int c = http.register("c-value", V1).json().get("id").asInt();

        assertThat(List.of(a, b, c)).containsExactly(1, 2, 1);
        assertThat(http.get("/schemas/ids/1/versions").json().toString())
                .isEqualTo("[{\"subject\":\"a-value\",\"version\":1},{\"subject\":\"c-value\",\"version\":1}]");
    }

    @Test
    void backwardIsTheDefaultAndAcceptsAnAddedOptionalFieldWithADefault() {
        http.register("a-value", V1);
        Reply reply = http.register("a-value", V2_OPTIONAL);

        assertThat(http.get("/config").json().get("compatibilityLevel").asText())
                .isEqualTo("BACKWARD");
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().get("id").asInt()).isEqualTo(2);
        assertThat(http.get("/subjects/a-value/versions").text()).isEqualTo("[1,2]");
    }

    @Test
    void backwardRejectsAnAddedRequiredFieldWith409NamingTheField() {
        http.register("a-value", V1);
        Reply reply = http.register("a-value", V2_REQUIRED);

        assertThat(reply.status()).isEqualTo(409);
        assertThat(reply.errorCode()).isEqualTo(409);
        assertThat(reply.json().get("message").asText())
                .contains("incompatible with an earlier schema for subject \"a-value\"")
                .contains("READER_FIELD_MISSING_DEFAULT_VALUE")
                .contains("count");
        assertThat(http.get("/subjects/a-value/versions").text()).isEqualTo("[1]");
    }

    @ParameterizedTest(name = "{0} after {1}: compatible={2}")
    @CsvSource({
        // level,     change,    compatible  (worked from Avro's reader/writer rules)
        "NONE,        REQUIRED,  true",
        "BACKWARD,    OPTIONAL,  true", // new reader fills the missing field from its default
        "BACKWARD,    REQUIRED,  false", // new reader has no default for V1 data
        "BACKWARD,    REMOVED,   true", // new reader skips the field V1 wrote
        "FORWARD,     OPTIONAL,  true",
        "FORWARD,     REQUIRED,  true", // V1 reader skips the added field
        "FORWARD,     REMOVED,   false", // V1 reader needs 'tokens' and has no default
        "FULL,        OPTIONAL,  true",
        "FULL,        REQUIRED,  false",
        "FULL,        REMOVED,   false",
    })
    void eachLevelDecidesAsAvroReaderWriterRulesSay(String level, String change, boolean compatible) {
        String candidate = switch (change) {
            case "OPTIONAL" -> V2_OPTIONAL;
            case "REQUIRED" -> V2_REQUIRED;
            default -> V2_REMOVED;
        };
        http.register("a-value", V1);
        http.send("PUT", "/config/a-value", Map.of("compatibility", level));

        Reply check = http.send("POST", "/compatibility/subjects/a-value/versions/latest", Map.of("schema", candidate));
        Reply register = http.register("a-value", candidate);

        assertThat(check.json().get("is_compatible").asBoolean()).isEqualTo(compatible);
        assertThat(register.status()).isEqualTo(compatible ? 200 : 409);
    }

    @Test
    void transitiveLevelsCheckEveryVersionPlainLevelsOnlyTheLatest() {
        String a = record("{\"name\":\"a\",\"type\":\"int\"}");
        String ab = record("{\"name\":\"a\",\"type\":\"int\"},{\"name\":\"b\",\"type\":\"int\",\"default\":0}");
        String b = record("{\"name\":\"b\",\"type\":\"int\"}"); // reads ab data, not a data (no default for b)
        http.register("t-value", a);
        http.register("t-value", ab);

        http.send("PUT", "/config/t-value", Map.of("compatibility", "BACKWARD_TRANSITIVE"));
        Reply transitive = http.register("t-value", b);
        http.send("PUT", "/config/t-value", Map.of("compatibility", "BACKWARD"));
        Reply plain = http.register("t-value", b);

        assertThat(transitive.status()).isEqualTo(409);
        assertThat(plain.status()).isEqualTo(200);
    }

    @Test
    void compatibilityEndpointChecksOneVersionAndExplainsWhenVerbose() {
        http.register("a-value", V1);
        http.register("a-value", V2_OPTIONAL);

        Reply againstOne = http.send(
                "POST", "/compatibility/subjects/a-value/versions/1?verbose=true", Map.of("schema", V2_REQUIRED));
        Reply unknownSubjectLatest =
                http.send("POST", "/compatibility/subjects/new-value/versions/latest", Map.of("schema", V1));
        Reply missingVersion = http.send("POST", "/compatibility/subjects/a-value/versions/9", Map.of("schema", V1));
        Reply unknownSubject = http.send("POST", "/compatibility/subjects/new-value/versions/1", Map.of("schema", V1));

        assertThat(againstOne.json().get("is_compatible").asBoolean()).isFalse();
        assertThat(againstOne.json().get("messages").toString()).contains("count");
        assertThat(unknownSubjectLatest.text()).isEqualTo("{\"is_compatible\":true}");
        assertThat(missingVersion.errorCode()).isEqualTo(40402);
        assertThat(unknownSubject.errorCode()).isEqualTo(40401);
    }

    @Test
    void lookupFindsTheVersionOfARegisteredSchema() {
        http.register("a-value", V1);
        http.register("a-value", V2_OPTIONAL);

        Reply found = http.send("POST", "/subjects/a-value", Map.of("schema", V2_OPTIONAL));
        Reply notInSubject = http.send("POST", "/subjects/a-value", Map.of("schema", V2_REMOVED));
        Reply noSubject = http.send("POST", "/subjects/nope", Map.of("schema", V1));

        assertThat(found.json().get("subject").asText()).isEqualTo("a-value");
        assertThat(found.json().get("version").asInt()).isEqualTo(2);
        assertThat(found.json().get("id").asInt()).isEqualTo(2);
        assertThat(found.json().get("schema").asText()).isEqualTo(canonical(V2_OPTIONAL));
        assertThat(notInSubject.status()).isEqualTo(404);
        assertThat(notInSubject.errorCode()).isEqualTo(40403);
        assertThat(noSubject.errorCode()).isEqualTo(40401);
        assertThat(noSubject.json().get("message").asText()).isEqualTo("Subject 'nope' not found.");
    }

    @Test
    void schemasByIdAndTypes() {
        http.register("a-value", V1);

        assertThat(http.get("/schemas/ids/1").json().get("schema").asText()).isEqualTo(canonical(V1));
        assertThat(http.get("/schemas/ids/99").status()).isEqualTo(404);
        assertThat(http.get("/schemas/ids/99").errorCode()).isEqualTo(40403);
        assertThat(http.get("/schemas/ids/99/versions").errorCode()).isEqualTo(40403);
        assertThat(http.get("/schemas/ids/x").errorCode()).isEqualTo(40403);
        assertThat(http.get("/schemas/types").text()).isEqualTo("[\"AVRO\"]");
    }

    @Test
    void subjectsAndVersions() {
        http.register("b-value", V1);
        http.register("a-value", V1);
        http.register("a-value", V2_OPTIONAL);

        assertThat(http.get("/subjects").text()).isEqualTo("[\"a-value\",\"b-value\"]");
        assertThat(http.get("/subjects/a-value/versions").text()).isEqualTo("[1,2]");
        assertThat(http.get("/subjects/a-value/versions/latest")
                        .json()
                        .get("version")
                        .asInt())
                .isEqualTo(2);
        assertThat(http.get("/subjects/a-value/versions/-1")
                        .json()
                        .get("version")
                        .asInt())
                .isEqualTo(2);
        Reply one = http.get("/subjects/a-value/versions/1");
        assertThat(one.json().fieldNames()).toIterable().containsExactly("subject", "version", "id", "schema");
        assertThat(one.json().get("id").asInt()).isEqualTo(1);
        // /schema answers the schema itself, not wrapped in an object
        assertThat(http.get("/subjects/a-value/versions/1/schema").text()).isEqualTo(canonical(V1));
        assertThat(http.get("/subjects/nope/versions").errorCode()).isEqualTo(40401);
        assertThat(http.get("/subjects/nope/versions/1").errorCode()).isEqualTo(40401);
        assertThat(http.get("/subjects/a-value/versions/7").errorCode()).isEqualTo(40402);
        assertThat(http.get("/subjects/a-value/versions/7")
                        .json()
                        .get("message")
                        .asText())
                .isEqualTo("Version 7 not found.");
        assertThat(http.get("/subjects/a-value/versions/0").errorCode()).isEqualTo(42202);
        assertThat(http.get("/subjects/a-value/versions/abc").status()).isEqualTo(422);
    }

    @Test
    void subjectNamesArePercentDecoded() {
        http.register("tokenpulse.chunks%2Fvalue", V1);

        assertThat(http.get("/subjects").text()).isEqualTo("[\"tokenpulse.chunks/value\"]");
    }

    @Test
    void globalAndSubjectCompatibilityLevels() {
        Reply setGlobal = http.send("PUT", "/config", Map.of("compatibility", "full"));
        Reply setSubject = http.send("PUT", "/config/a-value", Map.of("compatibility", "NONE"));

        assertThat(setGlobal.text()).isEqualTo("{\"compatibility\":\"FULL\"}");
        assertThat(setSubject.text()).isEqualTo("{\"compatibility\":\"NONE\"}");
        assertThat(http.get("/config").text()).isEqualTo("{\"compatibilityLevel\":\"FULL\"}");
        assertThat(http.get("/config/a-value").text()).isEqualTo("{\"compatibilityLevel\":\"NONE\"}");
        assertThat(http.get("/config/b-value").errorCode()).isEqualTo(40408);
        assertThat(http.get("/config/b-value?defaultToGlobal=true").text())
                .isEqualTo("{\"compatibilityLevel\":\"FULL\"}");
        // the subject's NONE wins over the global FULL
        http.register("a-value", V1);
        assertThat(http.register("a-value", V2_REQUIRED).status()).isEqualTo(200);
    }

    @Test
    void invalidCompatibilityLevelIs42203() {
        Reply global = http.send("PUT", "/config", Map.of("compatibility", "SIDEWAYS"));
        Reply subject = http.send("PUT", "/config/a-value", Map.of("other", "x"));

        assertThat(global.status()).isEqualTo(422);
        assertThat(global.errorCode()).isEqualTo(42203);
        assertThat(global.json().get("message").asText()).contains("SIDEWAYS").contains("BACKWARD_TRANSITIVE");
        assertThat(subject.errorCode()).isEqualTo(42203);
        assertThat(http.get("/config").json().get("compatibilityLevel").asText())
                .isEqualTo("BACKWARD");
    }

    @Test
    void deletingASubjectListsItsVersionsKeepsIdsAndDoesNotReuseVersionNumbers() {
        http.register("a-value", V1);
        http.register("a-value", V2_OPTIONAL);

        Reply deleted = http.delete("/subjects/a-value");

        assertThat(deleted.text()).isEqualTo("[1,2]");
        assertThat(http.get("/subjects").text()).isEqualTo("[]");
        assertThat(http.get("/subjects/a-value/versions").errorCode()).isEqualTo(40401);
        assertThat(http.get("/schemas/ids/2").status()).isEqualTo(200);
        assertThat(http.delete("/subjects/a-value").errorCode()).isEqualTo(40401);
        Reply again = http.register("a-value", V2_REQUIRED); // nothing live to be compatible with
        assertThat(again.json().get("id").asInt()).isEqualTo(3);
        assertThat(http.get("/subjects/a-value/versions").text()).isEqualTo("[3]");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "not Avro                  | {\"schema\": \"{\\\"type\\\": \\\"recrod\\\"}\"}",
                "empty schema              | {\"schema\": \"\"}",
                "no schema field           | {\"schama\": \"\\\"string\\\"\"}",
                "bad default               | {\"schema\": \"{\\\"type\\\":\\\"record\\\",\\\"name\\\":\\\"R\\\",\\\"fields\\\":[{\\\"name\\\":\\\"n\\\",\\\"type\\\":\\\"int\\\",\\\"default\\\":\\\"x\\\"}]}\"}",
                "protobuf                  | {\"schema\": \"syntax = \\\"proto3\\\";\", \"schemaType\": \"PROTOBUF\"}",
                "references                | {\"schema\": \"\\\"string\\\"\", \"references\": [{\"name\": \"x\", \"subject\": \"s\", \"version\": 1}]}",
            })
    void invalidSchemasAre42201(String why, String body) {
        Reply reply = http.sendRaw("POST", "/subjects/a-value/versions", body);

        assertThat(reply.status()).isEqualTo(422);
        assertThat(reply.errorCode()).isEqualTo(42201);
        assertThat(http.get("/subjects").text()).isEqualTo("[]");
    }

    @Test
    void malformedJsonUnknownPathsAndWrongMethodsGetJsonErrors() {
        Reply malformed = http.sendRaw("POST", "/subjects/a-value/versions", "{not json");
        Reply unknown = http.get("/nothing/here");
        Reply wrongMethod = http.delete("/schemas/types");

        assertThat(malformed.status()).isEqualTo(400);
        assertThat(malformed.errorCode()).isEqualTo(400);
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.errorCode()).isEqualTo(404);
        assertThat(wrongMethod.status()).isEqualTo(405);
        assertThat(wrongMethod.contentType()).isEqualTo("application/vnd.schemaregistry.v1+json");
    }

    @Test
    void aFailedStoreWriteIs50001AndChangesNothing() {
        store.failWrites(true);
        Reply reply = http.register("a-value", V1);
        store.failWrites(false);

        assertThat(reply.status()).isEqualTo(500);
        assertThat(reply.errorCode()).isEqualTo(50001);
        assertThat(http.get("/subjects").text()).isEqualTo("[]");
        assertThat(http.register("a-value", V1).json().get("id").asInt()).isEqualTo(1);
    }

    @Test
    void aRestartOnTheSameStoreKeepsIdsVersionsAndLevels() throws IOException {
        http.register("a-value", V1);
        http.register("b-value", V2_OPTIONAL);
        http.send("PUT", "/config", Map.of("compatibility", "FORWARD"));
        registry.close();

        registry = LocalSchemaRegistry.start(store, new InetSocketAddress("127.0.0.1", 0));
        http = new RegistryHttpClient(registry.url());

        assertThat(http.register("b-value", V2_OPTIONAL).json().get("id").asInt())
                .isEqualTo(2);
        assertThat(http.register("c-value", V2_REMOVED).json().get("id").asInt())
                .isEqualTo(3);
        assertThat(http.get("/config").json().get("compatibilityLevel").asText())
                .isEqualTo("FORWARD");
    }
}
