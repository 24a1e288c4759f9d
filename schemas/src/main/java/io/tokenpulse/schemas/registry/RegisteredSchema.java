package io.tokenpulse.schemas.registry;

import java.util.Objects;
import org.apache.avro.Schema;

/** One version of a subject: its global {@code id}, its {@code version} (1-based) and the schema. */
public record RegisteredSchema(String subject, int id, int version, Schema schema) {
    public RegisteredSchema {
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(schema, "schema");
        if (id < 0) {
            throw new IllegalArgumentException("schema id must be >= 0, got " + id);
        }
        if (version < 1) {
            throw new IllegalArgumentException("schema version must be >= 1, got " + version);
        }
    }
}
