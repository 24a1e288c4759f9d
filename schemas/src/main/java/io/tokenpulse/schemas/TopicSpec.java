package io.tokenpulse.schemas;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.common.serialization.Serde;

/**
 * One topic of the pipeline: its {@code name}, the serdes of its String keys and of its values,
 * and the registry {@code subject} of its value schema (empty for topics whose values are not
 * Avro, such as the dead-letter topic's raw bytes), and the topic {@code config} the pipeline needs
 * (e.g. {@code max.message.bytes}), which {@link TopicAdmin} applies; empty for the broker's defaults.
 */
public record TopicSpec<V>(
        String name,
        Serde<String> keySerde,
        Serde<V> valueSerde,
        Optional<String> subject,
        Map<String, String> config) {
    public TopicSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(keySerde, "keySerde");
        Objects.requireNonNull(valueSerde, "valueSerde");
        Objects.requireNonNull(subject, "subject");
        config = Map.copyOf(config);
    }

    /** A topic on the broker's default topic config. */
    public TopicSpec(String name, Serde<String> keySerde, Serde<V> valueSerde, Optional<String> subject) {
        this(name, keySerde, valueSerde, subject, Map.of());
    }
}
