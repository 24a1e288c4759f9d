package io.tokenpulse.schemas.registry;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** Confluent Schema Registry compatibility levels, spelled as the REST API spells them. */
public enum Compatibility {
    NONE,
    BACKWARD,
    BACKWARD_TRANSITIVE,
    FORWARD,
    FORWARD_TRANSITIVE,
    FULL,
    FULL_TRANSITIVE;

    /**
     * Parses a level as typed by a user or returned by a registry ({@code backward}, {@code FULL}).
     *
     * @throws IllegalArgumentException naming the known levels
     */
    public static Compatibility parse(String text) {
        try {
            return valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown compatibility level '" + text + "'; use one of "
                    + Arrays.stream(values()).map(Enum::name).collect(Collectors.joining(", ")));
        }
    }
}
