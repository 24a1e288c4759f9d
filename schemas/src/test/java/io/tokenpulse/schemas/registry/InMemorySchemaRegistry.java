package io.tokenpulse.schemas.registry;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.Schema;
import org.apache.avro.SchemaValidationException;
import org.apache.avro.SchemaValidatorBuilder;

/**
 * A test double of a schema registry held in memory: ids are global and start at 1, versions per
 * subject start at 1, and registering checks BACKWARD compatibility against the latest version
 * unless the level is NONE. Counts registry calls so tests can check the serde caches.
 */
public final class InMemorySchemaRegistry implements SchemaRegistry {
    private final Map<Integer, Schema> schemasById = new HashMap<>();
    private final Map<String, List<RegisteredSchema>> versionsBySubject = new HashMap<>();
    private final Map<String, Compatibility> levelBySubject = new HashMap<>();
    private Compatibility globalLevel = Compatibility.BACKWARD;
    private int nextId = 1;
    private final AtomicInteger calls = new AtomicInteger();

    /** Number of calls of any method so far. */
    public int calls() {
        return calls.get();
    }

    @Override
    public synchronized int register(String subject, Schema schema) {
        calls.incrementAndGet();
        OptionalInt existing = find(subject, schema);
        if (existing.isPresent()) {
            return existing.getAsInt();
        }
        List<RegisteredSchema> versions = versionsBySubject.computeIfAbsent(subject, s -> new ArrayList<>());
        if (!versions.isEmpty() && !backwardCompatible(subject, schema)) {
            throw new SchemaRegistryException(
                    "schema for subject " + subject + " is incompatible with version " + versions.size(),
                    409,
                    409,
                    null);
        }
        int id = schemasById.entrySet().stream()
                .filter(e -> e.getValue().equals(schema))
                .mapToInt(Map.Entry::getKey)
                .findFirst()
                .orElseGet(() -> nextId++);
        schemasById.put(id, schema);
        versions.add(new RegisteredSchema(subject, id, versions.size() + 1, schema));
        return id;
    }

    @Override
    public synchronized OptionalInt idOf(String subject, Schema schema) {
        calls.incrementAndGet();
        return find(subject, schema);
    }

    @Override
    public synchronized Schema schemaById(int id) {
        calls.incrementAndGet();
        Schema schema = schemasById.get(id);
        if (schema == null) {
            throw new SchemaRegistryException(
                    "schema id " + id + " is not known to the schema registry", 404, 40403, null);
        }
        return schema;
    }

    @Override
    public synchronized Optional<RegisteredSchema> latest(String subject) {
        calls.incrementAndGet();
        List<RegisteredSchema> versions = versionsBySubject.getOrDefault(subject, List.of());
        return versions.isEmpty() ? Optional.empty() : Optional.of(versions.get(versions.size() - 1));
    }

    @Override
    public synchronized CompatibilityResult testCompatibility(String subject, Schema schema) {
        calls.incrementAndGet();
        return new CompatibilityResult(backwardCompatible(subject, schema), List.of());
    }

    @Override
    public synchronized Compatibility compatibility() {
        calls.incrementAndGet();
        return globalLevel;
    }

    @Override
    public synchronized Optional<Compatibility> compatibility(String subject) {
        calls.incrementAndGet();
        return Optional.ofNullable(levelBySubject.get(subject));
    }

    @Override
    public synchronized void setCompatibility(Compatibility level) {
        calls.incrementAndGet();
        globalLevel = level;
    }

    @Override
    public synchronized void setCompatibility(String subject, Compatibility level) {
        calls.incrementAndGet();
        levelBySubject.put(subject, level);
    }

    private OptionalInt find(String subject, Schema schema) {
        return versionsBySubject.getOrDefault(subject, List.of()).stream()
                .filter(r -> r.schema().equals(schema))
                .mapToInt(RegisteredSchema::id)
                .findFirst();
    }

    private boolean backwardCompatible(String subject, Schema schema) {
        if (levelBySubject.getOrDefault(subject, globalLevel) == Compatibility.NONE) {
            return true;
        }
        List<RegisteredSchema> versions = versionsBySubject.getOrDefault(subject, List.of());
        if (versions.isEmpty()) {
            return true;
        }
        try {
            new SchemaValidatorBuilder()
                    .canReadStrategy()
                    .validateLatest()
                    .validate(schema, List.of(versions.get(versions.size() - 1).schema()));
            return true;
        } catch (SchemaValidationException e) {
            return false;
        }
    }
}
