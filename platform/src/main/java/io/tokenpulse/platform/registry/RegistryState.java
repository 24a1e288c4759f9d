package io.tokenpulse.platform.registry;

import io.tokenpulse.platform.registry.StoreRecord.Config;
import io.tokenpulse.platform.registry.StoreRecord.SchemaVersion;
import io.tokenpulse.schemas.registry.Compatibility;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The registry's data and rules: subjects, versions, global schema ids and compatibility levels.
 * Every change is first written to the {@link SchemaStore} and only then applied, so what callers
 * see is always what a restart would rebuild. Thread-safe: every method holds the instance lock
 * (registrations must be serialized anyway to hand out ids).
 */
final class RegistryState {
    private static final Logger log = LoggerFactory.getLogger(RegistryState.class);
    /** Its stack traces: hidden unless --verbose (simplelogger.properties, tokenpulse.stacktraces). */
    private static final Logger TRACES =
            LoggerFactory.getLogger("tokenpulse.stacktraces." + RegistryState.class.getName());

    /** A version as the REST API shows it. */
    record Version(String subject, int version, int id, String schema) {}

    /** Result of a compatibility check; {@code messages} is empty when compatible. */
    record Verdict(boolean compatible, List<String> messages) {}

    private final SchemaStore store;
    /** subject -> version -> entry, soft-deleted versions included (they keep their numbers). */
    private final Map<String, NavigableMap<Integer, SchemaVersion>> subjects = new TreeMap<>();

    private final Map<Integer, String> schemaById = new HashMap<>();
    private final Map<String, Integer> idBySchema = new HashMap<>();
    private final Map<String, Compatibility> subjectLevels = new HashMap<>();
    private Compatibility globalLevel;
    private int maxId;

    private RegistryState(SchemaStore store, Compatibility defaultLevel) {
        this.store = store;
        this.globalLevel = defaultLevel;
    }

    /** Rebuilds the registry from everything the store holds. */
    static RegistryState load(SchemaStore store, Compatibility defaultLevel) throws IOException {
        RegistryState state = new RegistryState(store, defaultLevel);
        List<StoreRecord> records = store.readAll();
        records.forEach(state::apply);
        log.info(
                "Schema registry rebuilt from {} stored entries: {} subjects, {} schemas",
                records.size(),
                state.subjects.size(),
                state.schemaById.size());
        return state;
    }

    synchronized int register(String subject, String schemaText) throws RegistryException {
        Schema schema = parse(schemaText);
        String canonical = schema.toString();
        List<SchemaVersion> live = live(subject);
        for (SchemaVersion existing : live) {
            if (existing.schema().equals(canonical)) {
                return existing.id();
            }
        }
        List<String> problems = CompatibilityRules.incompatibilities(levelOf(subject), schema, parsedSchemas(live));
        if (!problems.isEmpty()) {
            throw new RegistryException(
                    RegistryException.INCOMPATIBLE_SCHEMA,
                    "Schema being registered is incompatible with an earlier schema for subject \"" + subject
                            + "\" (compatibility " + levelOf(subject) + "), details: " + problems);
        }
        int id = idBySchema.getOrDefault(canonical, maxId + 1);
        NavigableMap<Integer, SchemaVersion> all = subjects.get(subject);
        // Numbers of soft-deleted versions are not reused, as in Confluent's registry.
        int version = all == null || all.isEmpty() ? 1 : all.lastKey() + 1;
        write(new SchemaVersion(subject, version, id, canonical, false));
        return id;
    }

    synchronized Version lookup(String subject, String schemaText) throws RegistryException {
        String canonical = parse(schemaText).toString();
        List<SchemaVersion> live = requireLive(subject);
        for (SchemaVersion existing : live) {
            if (existing.schema().equals(canonical)) {
                return view(existing);
            }
        }
        throw new RegistryException(RegistryException.SCHEMA_NOT_FOUND, "Schema not found");
    }

    synchronized String schema(int id) throws RegistryException {
        String schema = schemaById.get(id);
        if (schema == null) {
            throw schemaNotFound(id);
        }
        return schema;
    }

    /** The live (subject, version) pairs that hold schema {@code id}. */
    synchronized List<Version> versionsOf(int id) throws RegistryException {
        schema(id);
        List<Version> out = new ArrayList<>();
        for (String subject : subjects.keySet()) {
            for (SchemaVersion version : live(subject)) {
                if (version.id() == id) {
                    out.add(view(version));
                }
            }
        }
        return out;
    }

    synchronized List<String> subjects() {
        return subjects.keySet().stream()
                .filter(subject -> !live(subject).isEmpty())
                .toList();
    }

    synchronized List<Integer> versions(String subject) throws RegistryException {
        return requireLive(subject).stream().map(SchemaVersion::version).toList();
    }

    /** @param versionSpec a version number, {@code latest} or {@code -1} */
    synchronized Version version(String subject, String versionSpec) throws RegistryException {
        int wanted = parseVersion(versionSpec);
        List<SchemaVersion> live = requireLive(subject);
        if (wanted == -1) {
            return view(live.get(live.size() - 1));
        }
        for (SchemaVersion version : live) {
            if (version.version() == wanted) {
                return view(version);
            }
        }
        throw RegistryException.versionNotFound(wanted);
    }

    /**
     * Checks {@code schemaText} against one version under the subject's level. As in Confluent's
     * registry, {@code latest} of a subject without versions accepts anything.
     */
    synchronized Verdict checkCompatibility(String subject, String versionSpec, String schemaText)
            throws RegistryException {
        Schema candidate = parse(schemaText);
        int wanted = parseVersion(versionSpec);
        if (wanted == -1 && live(subject).isEmpty()) {
            return new Verdict(true, List.of());
        }
        Schema existing = parse(version(subject, versionSpec).schema());
        List<String> problems = CompatibilityRules.incompatibilities(levelOf(subject), candidate, List.of(existing));
        return new Verdict(problems.isEmpty(), problems);
    }

    synchronized Compatibility globalLevel() {
        return globalLevel;
    }

    /**
     * The subject's own level; with {@code defaultToGlobal} the global one when it has none, else
     * 40408 as in Confluent's registry.
     */
    synchronized Compatibility subjectLevel(String subject, boolean defaultToGlobal) throws RegistryException {
        Compatibility level = subjectLevels.get(subject);
        if (level != null) {
            return level;
        }
        if (defaultToGlobal) {
            return globalLevel;
        }
        throw new RegistryException(
                RegistryException.SUBJECT_COMPATIBILITY_NOT_CONFIGURED,
                "Subject '" + subject + "' does not have subject-level compatibility configured");
    }

    /** Sets the level of {@code subject}, or the global level when it is null. */
    synchronized void setLevel(String subject, Compatibility level) throws RegistryException {
        write(new Config(subject, level));
    }

    /** Soft-deletes every live version of the subject; their schema ids stay resolvable. */
    synchronized List<Integer> deleteSubject(String subject) throws RegistryException {
        List<Integer> deleted = new ArrayList<>();
        for (SchemaVersion version : requireLive(subject)) {
            write(version.asDeleted());
            deleted.add(version.version());
        }
        return deleted;
    }

    private void write(StoreRecord record) throws RegistryException {
        try {
            store.append(record);
        } catch (IOException e) {
            log.warn("Schema store write failed for {}: {}", record.key(), e.toString());
            TRACES.warn("Schema store write failed for {}", record.key(), e);
            throw new RegistryException(
                    RegistryException.STORE_ERROR, "Error in the backend datastore: " + e.getMessage());
        }
        apply(record);
    }

    private void apply(StoreRecord record) {
        if (record instanceof SchemaVersion version) {
            subjects.computeIfAbsent(version.subject(), s -> new TreeMap<>()).put(version.version(), version);
            schemaById.put(version.id(), version.schema());
            idBySchema.putIfAbsent(version.schema(), version.id());
            maxId = Math.max(maxId, version.id());
        } else if (record instanceof Config config) {
            if (config.subject() == null) {
                globalLevel = config.level();
            } else {
                subjectLevels.put(config.subject(), config.level());
            }
        }
    }

    private Compatibility levelOf(String subject) {
        return subjectLevels.getOrDefault(subject, globalLevel);
    }

    private List<SchemaVersion> live(String subject) {
        NavigableMap<Integer, SchemaVersion> all = subjects.get(subject);
        return all == null
                ? List.of()
                : all.values().stream().filter(v -> !v.deleted()).toList();
    }

    private List<SchemaVersion> requireLive(String subject) throws RegistryException {
        List<SchemaVersion> live = live(subject);
        if (live.isEmpty()) {
            throw RegistryException.subjectNotFound(subject);
        }
        return live;
    }

    private static List<Schema> parsedSchemas(List<SchemaVersion> versions) throws RegistryException {
        List<Schema> out = new ArrayList<>();
        for (SchemaVersion version : versions) {
            out.add(parse(version.schema()));
        }
        return out;
    }

    private static Version view(SchemaVersion version) {
        return new Version(version.subject(), version.version(), version.id(), version.schema());
    }

    static Schema parse(String schemaText) throws RegistryException {
        if (schemaText == null || schemaText.isBlank()) {
            throw new RegistryException(RegistryException.INVALID_SCHEMA, "Empty schema");
        }
        try {
            // A fresh parser per schema: a shared one would remember names across schemas.
            return new Schema.Parser().parse(schemaText);
        } catch (AvroRuntimeException e) {
            throw new RegistryException(RegistryException.INVALID_SCHEMA, "Invalid schema: " + e.getMessage());
        } catch (NullPointerException e) {
            // Avro 1.12 reports a reference to an undefined type name this way.
            throw new RegistryException(
                    RegistryException.INVALID_SCHEMA,
                    "Invalid schema: it uses a type name that is neither primitive nor defined in the schema");
        }
    }

    /** -1 stands for latest, as in Confluent's API. */
    private static int parseVersion(String spec) throws RegistryException {
        if ("latest".equalsIgnoreCase(spec)) {
            return -1;
        }
        try {
            int version = Integer.parseInt(spec);
            if (version == -1 || version >= 1) {
                return version;
            }
        } catch (NumberFormatException notANumber) {
            // reported below with the allowed values
        }
        throw new RegistryException(
                RegistryException.INVALID_VERSION,
                "The specified version '" + spec
                        + "' is not a valid version id. Allowed values are between [1, 2^31-1] and the string \"latest\"");
    }

    private static RegistryException schemaNotFound(int id) {
        return new RegistryException(RegistryException.SCHEMA_NOT_FOUND, "Schema " + id + " not found");
    }
}
