package io.tokenpulse.producer.publish;

import io.tokenpulse.schemas.TopicSpec;
import io.tokenpulse.schemas.Topics;
import io.tokenpulse.schemas.avro.Chunk;
import io.tokenpulse.schemas.registry.SchemaRegistry;
import java.lang.reflect.Proxy;
import java.util.OptionalInt;

/**
 * What the publisher's sender thread does with a chunk before KafkaProducer.send: its key and value
 * bytes, with its {@code ChunkWriter} (or the topic's serdes, as before it, with -Dhotpath.serdes=true).
 */
public final class ChunkBench {

    private final TopicSpec<Chunk> topic;
    /** The publisher's own chunk writer where it has one (null before it had). */
    private final ChunkWriter writer;

    public ChunkBench() {
        SchemaRegistry registry = (SchemaRegistry) Proxy.newProxyInstance(
                SchemaRegistry.class.getClassLoader(), new Class<?>[] {SchemaRegistry.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "register" -> 7;
                    case "idOf" -> OptionalInt.of(7);
                    default -> throw new UnsupportedOperationException(method.getName());
                });
        topic = Topics.create(registry, true).chunks();
        writer = Boolean.getBoolean("hotpath.serdes") ? null : ChunkWriter.forSerializer(topic.valueSerde().serializer());
    }

    /** The record's size, so that nothing is optimized away. */
    public int encode(Chunk chunk) {
        if (writer != null) {
            return new Spool.Record(2, writer.key(chunk), writer.value(chunk)).value().length;
        }
        byte[] key = topic.keySerde().serializer().serialize(topic.name(),
                Topics.requestKey(chunk.getRunId(), chunk.getRequestIndex()));
        byte[] value = topic.valueSerde().serializer().serialize(topic.name(), chunk);
        return new Spool.Record(2, key, value).value().length;
    }
}
