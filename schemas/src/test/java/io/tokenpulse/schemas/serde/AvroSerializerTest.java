package io.tokenpulse.schemas.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tokenpulse.schemas.avro.Chunk;
import io.tokenpulse.schemas.registry.InMemorySchemaRegistry;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

class AvroSerializerTest {
    private static final String SUBJECT = "tokenpulse.chunks-value";
    private final InMemorySchemaRegistry registry = new InMemorySchemaRegistry();

    @Test
    void withoutAutoRegisterAMissingSchemaFailsSayingWhatToDo() {
        AvroSerializer<Chunk> serializer = new AvroSerializer<>(registry, Chunk.class, SUBJECT, false);

        assertThatThrownBy(() -> serializer.serialize("tokenpulse.chunks", SampleRecords.chunk()))
                .isInstanceOf(SerializationException.class)
                .hasMessage("the schema of io.tokenpulse.schemas.avro.Chunk is not registered under subject"
                        + " tokenpulse.chunks-value; register it first or turn on auto-registration");
        assertThat(registry.latest(SUBJECT)).isEmpty();
    }

    @Test
    void withoutAutoRegisterTheRegisteredIdIsLookedUpAndNothingIsRegistered() {
        int id = registry.register(SUBJECT, Chunk.getClassSchema());
        AvroSerializer<Chunk> serializer = new AvroSerializer<>(registry, Chunk.class, SUBJECT, false);

        byte[] bytes = serializer.serialize("tokenpulse.chunks", SampleRecords.chunk());

        assertThat(ByteBuffer.wrap(bytes).getInt(1)).isEqualTo(id);
        assertThat(registry.latest(SUBJECT).orElseThrow().version()).isEqualTo(1);
    }

    @Test
    void registryIsCalledOnceForManyRecordsOnManyThreads() throws Exception {
        AvroSerializer<Chunk> serializer = new AvroSerializer<>(registry, Chunk.class, SUBJECT, true);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<byte[]>> results = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                results.add(pool.submit(() -> serializer.serialize("t", SampleRecords.chunk())));
            }
            byte[] first = results.get(0).get();
            for (Future<byte[]> result : results) {
                assertThat(result.get()).isEqualTo(first);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(registry.calls()).isEqualTo(1);
    }

    @Test
    void theSubjectIsFixedSoStreamsInternalTopicsReuseTheTopicsId() {
        AvroSerializer<Chunk> serializer = new AvroSerializer<>(registry, Chunk.class, SUBJECT, true);

        byte[] main = serializer.serialize("tokenpulse.chunks", SampleRecords.chunk());
        byte[] changelog = serializer.serialize("agg-chunk-store-changelog", SampleRecords.chunk());

        assertThat(changelog).isEqualTo(main);
        assertThat(registry.latest("agg-chunk-store-changelog-value")).isEmpty();
    }

    @Test
    void requiredFieldLeftNullIsASerializationExceptionNamingTheField() {
        AvroSerializer<Chunk> serializer = new AvroSerializer<>(registry, Chunk.class, SUBJECT, true);
        Chunk broken = SampleRecords.chunk();
        broken.setRunId(null);

        assertThatThrownBy(() -> serializer.serialize("tokenpulse.chunks", broken))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("cannot write a Chunk record to topic tokenpulse.chunks")
                .hasMessageContaining("run_id");
    }

    @Test
    void nullRecordIsATombstone() {
        AvroSerializer<Chunk> serializer = new AvroSerializer<>(registry, Chunk.class, SUBJECT, false);

        assertThat(serializer.serialize("tokenpulse.chunks", null)).isNull();
        assertThat(registry.calls()).isZero();
    }

    @Test
    void subjectsFollowConfluentTopicNaming() {
        assertThat(AvroSerdes.valueSubject("tokenpulse.chunks")).isEqualTo("tokenpulse.chunks-value");
        assertThat(AvroSerdes.keySubject("tokenpulse.chunks")).isEqualTo("tokenpulse.chunks-key");
    }
}
