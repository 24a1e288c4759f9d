package io.tokenpulse.platform.registry;

import io.tokenpulse.schemas.registry.Compatibility;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.Incompatibility;

/**
 * What each Confluent compatibility level means, decided by Avro's own {@link SchemaCompatibility}
 * rather than rules of our own. BACKWARD: the new schema reads data written with the old one;
 * FORWARD: the old schema reads data written with the new one; FULL: both. Plain levels check the
 * latest version only, {@code *_TRANSITIVE} levels check every live version.
 */
final class CompatibilityRules {
    private CompatibilityRules() {}

    /** Parses a level case-insensitively, as Confluent does; anything else is a 42203. */
    static Compatibility parse(String text) throws RegistryException {
        try {
            return Compatibility.parse(String.valueOf(text));
        } catch (IllegalArgumentException e) {
            throw new RegistryException(
                    RegistryException.INVALID_COMPATIBILITY_LEVEL, "Invalid compatibility level: " + e.getMessage());
        }
    }

    /**
     * Why {@code candidate} may not follow {@code existingOldestFirst} at {@code level}; empty when
     * it may.
     */
    static List<String> incompatibilities(Compatibility level, Schema candidate, List<Schema> existingOldestFirst) {
        if (existingOldestFirst.isEmpty() || level == Compatibility.NONE) {
            return List.of();
        }
        boolean transitive = level.name().endsWith("_TRANSITIVE");
        boolean newReadsOld =
                level.name().startsWith("BACKWARD") || level.name().startsWith("FULL");
        boolean oldReadsNew = level.name().startsWith("FORWARD") || level.name().startsWith("FULL");
        List<Schema> against =
                transitive ? existingOldestFirst : List.of(existingOldestFirst.get(existingOldestFirst.size() - 1));
        List<String> problems = new ArrayList<>();
        for (Schema existing : against) {
            if (newReadsOld) {
                problems.addAll(describe(
                        "the new schema cannot read data written with an earlier one",
                        SchemaCompatibility.checkReaderWriterCompatibility(candidate, existing)));
            }
            if (oldReadsNew) {
                problems.addAll(describe(
                        "an earlier schema cannot read data written with the new one",
                        SchemaCompatibility.checkReaderWriterCompatibility(existing, candidate)));
            }
        }
        return problems;
    }

    private static List<String> describe(String direction, SchemaCompatibility.SchemaPairCompatibility pair) {
        List<String> out = new ArrayList<>();
        for (Incompatibility problem : pair.getResult().getIncompatibilities()) {
            out.add(direction + ": " + problem.getType() + " at " + problem.getLocation() + ": "
                    + problem.getMessage());
        }
        return out;
    }
}
