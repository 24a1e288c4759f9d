package io.tokenpulse.schemas.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client of the Confluent Schema Registry REST API (the subset in {@link SchemaRegistry}), over
 * {@code java.net.http} and Jackson.
 *
 * <p>Written here because Confluent's own Java client ({@code io.confluent:kafka-schema-registry-client})
 * is published only to Confluent's Maven repository, not to Maven Central, which is the one
 * registry this project builds from. It speaks to Confluent's server and to any registry with the
 * same REST API (the local registry in module {@code platform}, Apicurio's compatibility API).
 *
 * <p>Thread-safe. Ids and schemas are cached forever once known (the registry never changes the
 * schema behind an id), so the serde's hot path makes no HTTP call after the first per schema.
 * Credentials go only into the {@code Authorization} header: never into {@link #toString()},
 * log lines or exception messages.
 */
public final class SchemaRegistryClient implements SchemaRegistry {
    private static final Logger LOG = LoggerFactory.getLogger(SchemaRegistryClient.class);
    private static final int SUBJECT_NOT_FOUND = 40401;
    private static final int VERSION_NOT_FOUND = 40402;
    private static final int SCHEMA_NOT_FOUND = 40403;
    private static final int SUBJECT_LEVEL_CONFIG_NOT_FOUND = 40408;

    private final SchemaRegistrySettings settings;
    private final ObjectMapper json = new ObjectMapper();
    private final RegistryHttp http;
    private final Map<String, Map<Schema, Integer>> idsBySubject = new ConcurrentHashMap<>();
    private final Map<Integer, Schema> schemasById = new ConcurrentHashMap<>();

    /**
     * A client for {@code settings}. Makes no request yet.
     *
     * @throws IllegalArgumentException when the truststore cannot be read
     */
    public SchemaRegistryClient(SchemaRegistrySettings settings) {
        this.settings = settings;
        this.http = new RegistryHttp(settings, json);
    }

    @Override
    public int register(String subject, Schema schema) {
        Integer cached = cachedId(subject, schema);
        if (cached != null) {
            return cached;
        }
        RegistryHttp.Reply reply = http.send("POST", "/subjects/" + encode(subject) + "/versions", schemaBody(schema));
        if (reply.status() == 409) {
            throw incompatible(subject, reply);
        }
        if (reply.status() == 422) {
            throw new SchemaRegistryException(
                    "the schema registry at " + reply.url() + " rejected the schema for subject " + subject
                            + " as invalid: " + reply.message(),
                    reply.status(),
                    reply.errorCode(),
                    null);
        }
        if (!reply.ok()) {
            throw failure(reply, "register a schema under subject " + subject);
        }
        int id = requireInt(reply, "id", "register a schema under subject " + subject);
        remember(subject, schema, id);
        LOG.info("Schema {} is id {} under subject {} at {}", schema.getFullName(), id, subject, reply.url());
        return id;
    }

    @Override
    public OptionalInt idOf(String subject, Schema schema) {
        Integer cached = cachedId(subject, schema);
        if (cached != null) {
            return OptionalInt.of(cached);
        }
        RegistryHttp.Reply reply = http.send("POST", "/subjects/" + encode(subject), schemaBody(schema));
        if (reply.status() == 404
                && (reply.errorCode() == SUBJECT_NOT_FOUND || reply.errorCode() == SCHEMA_NOT_FOUND)) {
            return OptionalInt.empty();
        }
        if (!reply.ok()) {
            throw failure(reply, "look up a schema under subject " + subject);
        }
        int id = requireInt(reply, "id", "look up a schema under subject " + subject);
        remember(subject, schema, id);
        return OptionalInt.of(id);
    }

    @Override
    public Schema schemaById(int id) {
        Schema cached = schemasById.get(id);
        if (cached != null) {
            return cached;
        }
        RegistryHttp.Reply reply = http.send("GET", "/schemas/ids/" + id, null);
        if (reply.status() == 404) {
            throw new SchemaRegistryException(
                    "schema id " + id + " is not known to the schema registry at " + reply.url() + " ("
                            + reply.message() + "); was the record written against another registry?",
                    reply.status(),
                    reply.errorCode(),
                    null);
        }
        if (!reply.ok()) {
            throw failure(reply, "read schema id " + id);
        }
        Schema schema = parseAvro(reply, "schema id " + id);
        Schema previous = schemasById.putIfAbsent(id, schema);
        return previous != null ? previous : schema;
    }

    @Override
    public Optional<RegisteredSchema> latest(String subject) {
        RegistryHttp.Reply reply = http.send("GET", "/subjects/" + encode(subject) + "/versions/latest", null);
        if (reply.status() == 404
                && (reply.errorCode() == SUBJECT_NOT_FOUND || reply.errorCode() == VERSION_NOT_FOUND)) {
            return Optional.empty();
        }
        if (!reply.ok()) {
            throw failure(reply, "read the latest version of subject " + subject);
        }
        String what = "the latest version of subject " + subject;
        int id = requireInt(reply, "id", "read " + what);
        Schema schema = parseAvro(reply, what);
        schemasById.putIfAbsent(id, schema);
        return Optional.of(new RegisteredSchema(subject, id, requireInt(reply, "version", "read " + what), schema));
    }

    @Override
    public CompatibilityResult testCompatibility(String subject, Schema schema) {
        RegistryHttp.Reply reply = http.send(
                "POST",
                "/compatibility/subjects/" + encode(subject) + "/versions/latest?verbose=true",
                schemaBody(schema));
        if (reply.status() == 404
                && (reply.errorCode() == SUBJECT_NOT_FOUND || reply.errorCode() == VERSION_NOT_FOUND)) {
            return new CompatibilityResult(true, List.of()); // nothing registered yet to conflict with
        }
        if (!reply.ok() || !reply.body().path("is_compatible").isBoolean()) {
            throw failure(reply, "test compatibility under subject " + subject);
        }
        List<String> messages = new ArrayList<>();
        reply.body().path("messages").forEach(m -> messages.add(RegistryHttp.oneLine(m.asText())));
        return new CompatibilityResult(reply.body().path("is_compatible").asBoolean(), messages);
    }

    @Override
    public Compatibility compatibility() {
        RegistryHttp.Reply reply = http.send("GET", "/config", null);
        if (!reply.ok()) {
            throw failure(reply, "read the compatibility level");
        }
        return level(reply, "read the compatibility level");
    }

    @Override
    public Optional<Compatibility> compatibility(String subject) {
        RegistryHttp.Reply reply = http.send("GET", "/config/" + encode(subject), null);
        if (reply.status() == 404
                && (reply.errorCode() == SUBJECT_NOT_FOUND || reply.errorCode() == SUBJECT_LEVEL_CONFIG_NOT_FOUND)) {
            return Optional.empty();
        }
        if (!reply.ok()) {
            throw failure(reply, "read the compatibility level of subject " + subject);
        }
        return Optional.of(level(reply, "read the compatibility level of subject " + subject));
    }

    @Override
    public void setCompatibility(Compatibility level) {
        putConfig("/config", level, "set the compatibility level");
    }

    @Override
    public void setCompatibility(String subject, Compatibility level) {
        putConfig("/config/" + encode(subject), level, "set the compatibility level of subject " + subject);
    }

    @Override
    public String toString() {
        return "SchemaRegistryClient[" + settings + "]";
    }

    private void putConfig(String path, Compatibility level, String action) {
        ObjectNode body = json.createObjectNode().put("compatibility", level.name());
        RegistryHttp.Reply reply = http.send("PUT", path, body);
        if (!reply.ok()) {
            throw failure(reply, action);
        }
    }

    private Integer cachedId(String subject, Schema schema) {
        Map<Schema, Integer> ids = idsBySubject.get(subject);
        return ids == null ? null : ids.get(schema);
    }

    private void remember(String subject, Schema schema, int id) {
        idsBySubject.computeIfAbsent(subject, s -> new ConcurrentHashMap<>()).put(schema, id);
        schemasById.putIfAbsent(id, schema);
    }

    private ObjectNode schemaBody(Schema schema) {
        // schemaType is left out: AVRO is the default, and older registries reject the field.
        return json.createObjectNode().put("schema", schema.toString());
    }

    /** 409: names the version it clashes with, found with one extra request, best effort. */
    private SchemaRegistryException incompatible(String subject, RegistryHttp.Reply reply) {
        String version;
        try {
            version = latest(subject).map(r -> "version " + r.version()).orElse("its registered versions");
        } catch (SchemaRegistryException e) {
            version = "its registered versions";
        }
        return new SchemaRegistryException(
                "schema for subject " + subject + " is incompatible with " + version + ": " + reply.message(),
                reply.status(),
                reply.errorCode(),
                null);
    }

    private static SchemaRegistryException failure(RegistryHttp.Reply reply, String action) {
        int status = reply.status();
        if (status == 401 || status == 403) {
            return new SchemaRegistryException(
                    "the schema registry at " + reply.url() + " refused to " + action + " (HTTP " + status
                            + "); check the registry credentials",
                    status,
                    reply.errorCode(),
                    null);
        }
        String message = reply.message();
        return new SchemaRegistryException(
                "cannot " + action + ": the schema registry at " + reply.url()
                        + " answered HTTP " + status
                        + (reply.errorCode() != 0 ? " (error " + reply.errorCode() + ")" : "")
                        + (message.isEmpty() ? "" : ": " + message),
                status,
                reply.errorCode(),
                null);
    }

    private static int requireInt(RegistryHttp.Reply reply, String field, String action) {
        JsonNode value = reply.body().path(field);
        if (!value.canConvertToInt()) {
            throw new SchemaRegistryException(
                    "cannot " + action + ": the answer of the schema registry at " + reply.url() + " has no integer '"
                            + field + "'; is this a Confluent-compatible registry?",
                    reply.status(),
                    0,
                    null);
        }
        return value.asInt();
    }

    private static Schema parseAvro(RegistryHttp.Reply reply, String what) {
        String type = reply.body().path("schemaType").asText("AVRO");
        if (!type.equals("AVRO")) {
            throw new SchemaRegistryException(
                    what + " at the schema registry " + reply.url() + " is a " + type
                            + " schema; TokenPulse reads only Avro",
                    reply.status(),
                    0,
                    null);
        }
        JsonNode text = reply.body().path("schema");
        if (!text.isTextual()) {
            throw new SchemaRegistryException(
                    "the answer for " + what + " from the schema registry at " + reply.url() + " has no 'schema' text",
                    reply.status(),
                    0,
                    null);
        }
        try {
            return new Schema.Parser().parse(text.asText());
        } catch (SchemaParseException e) {
            throw new SchemaRegistryException(
                    what + " at the schema registry " + reply.url() + " is not valid Avro: "
                            + RegistryHttp.oneLine(e.getMessage()),
                    reply.status(),
                    0,
                    e);
        }
    }

    private static Compatibility level(RegistryHttp.Reply reply, String action) {
        // GET answers compatibilityLevel; some registries answer compatibility, as PUT does.
        JsonNode level = reply.body().path("compatibilityLevel");
        if (!level.isTextual()) {
            level = reply.body().path("compatibility");
        }
        if (!level.isTextual()) {
            throw new SchemaRegistryException(
                    "cannot " + action + ": the answer of the schema registry at " + reply.url()
                            + " has no compatibility level",
                    reply.status(),
                    0,
                    null);
        }
        try {
            return Compatibility.parse(level.asText());
        } catch (IllegalArgumentException e) {
            throw new SchemaRegistryException("cannot " + action + ": " + e.getMessage(), reply.status(), 0, e);
        }
    }

    private static String encode(String subject) {
        return URLEncoder.encode(subject, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
