package io.tokenpulse.schemas;

import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.common.serialization.Serde;

/**
 * One topic of the pipeline: its {@code name}, the serdes of its String keys and of its values,
 * and the registry {@code subject} of its value schema (empty for topics whose values are not
 * Avro, such as the dead-letter topic's raw bytes).
 */
public record TopicSpec<V>(
    String name, Serde<String> keySerde, Serde<V> valueSerde, Optional<String> subject) {
  public TopicSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(keySerde, "keySerde");
    Objects.requireNonNull(valueSerde, "valueSerde");
    Objects.requireNonNull(subject, "subject");
  }
}
