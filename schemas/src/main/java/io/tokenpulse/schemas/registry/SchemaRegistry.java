package io.tokenpulse.schemas.registry;

import java.util.Optional;
import java.util.OptionalInt;
import org.apache.avro.Schema;

/**
 * The part of a Confluent-compatible Schema Registry that the wire-format serde and the CLI use.
 *
 * <p>Implementations are thread-safe. Failures (registry unreachable, incompatible schema, bad
 * credentials, unknown id) are thrown as {@link SchemaRegistryException} with a one-line message
 * saying what to change; "not found" answers that callers are expected to handle are returned as
 * empty optionals instead.
 */
public interface SchemaRegistry {

    /**
     * Registers {@code schema} under {@code subject} (a new version unless the registry already has
     * it) and returns its global id.
     *
     * @throws SchemaRegistryException status 409 when the subject's compatibility rule rejects it
     */
    int register(String subject, Schema schema);

    /** The global id of {@code schema} if it is registered under {@code subject}, else empty. */
    OptionalInt idOf(String subject, Schema schema);

    /**
     * The schema with global id {@code id}.
     *
     * @throws SchemaRegistryException status 404 when the registry does not know the id
     */
    Schema schemaById(int id);

    /** The newest version registered under {@code subject}, or empty when the subject has none. */
    Optional<RegisteredSchema> latest(String subject);

    /**
     * Whether {@code schema} could be registered under {@code subject} as its next version. A subject
     * with no versions accepts any schema.
     */
    CompatibilityResult testCompatibility(String subject, Schema schema);

    /** The registry-wide compatibility level. */
    Compatibility compatibility();

    /** The level set for {@code subject} itself, or empty when it follows the registry-wide one. */
    Optional<Compatibility> compatibility(String subject);

    /** Sets the registry-wide compatibility level. */
    void setCompatibility(Compatibility level);

    /** Sets the compatibility level of {@code subject}, overriding the registry-wide one. */
    void setCompatibility(String subject, Compatibility level);
}
