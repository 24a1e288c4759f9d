package io.tokenpulse.platform.registry;

import io.tokenpulse.schemas.registry.Compatibility;
import java.util.Objects;

/**
 * One entry of the registry's log. Replaying every entry in order rebuilds the registry; entries
 * with the same {@link #key()} replace each other, which is what lets the Kafka topic be compacted.
 */
sealed interface StoreRecord {

    /** The identity under which a later entry replaces this one. */
    String key();

    /**
     * Version {@code version} of {@code subject} is schema {@code id}. Deleting a subject rewrites
     * its versions with {@code deleted=true} instead of dropping them, so ids stay resolvable.
     *
     * @param schema the schema's canonical text (Avro's own {@code Schema.toString()})
     */
    record SchemaVersion(String subject, int version, int id, String schema, boolean deleted) implements StoreRecord {
        public SchemaVersion {
            Objects.requireNonNull(subject, "subject");
            Objects.requireNonNull(schema, "schema");
            if (version < 1 || id < 1) {
                throw new IllegalArgumentException("version and id start at 1, got version " + version + ", id " + id);
            }
        }

        @Override
        public String key() {
            return "SCHEMA/" + version + "/" + subject;
        }

        SchemaVersion asDeleted() {
            return new SchemaVersion(subject, version, id, schema, true);
        }
    }

    /** The compatibility level of one subject, or the global one when {@code subject} is null. */
    record Config(String subject, Compatibility level) implements StoreRecord {
        public Config {
            Objects.requireNonNull(level, "level");
        }

        @Override
        public String key() {
            return subject == null ? "CONFIG" : "CONFIG/" + subject;
        }
    }
}
