package io.tokenpulse.producer.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tokenpulse.schemas.avro.Chunk;
import io.tokenpulse.schemas.serde.AvroSerializer;
import java.nio.charset.StandardCharsets;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ChunkWriterTest {

    private static final int SCHEMA_ID = 0x01020304;

    private final AvroSerializer<Chunk> serializer =
            new AvroSerializer<>(FixedIdRegistry.of(SCHEMA_ID), Chunk.class, "tokenpulse.chunks-value", true);
    private final ChunkWriter writer = ChunkWriter.forSerializer(serializer);

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "typical first chunk     | run-1                | 0 | 7          | 0   | 50000000             | 0                    | 1764270000000000000  |      | 205",
                "later chunk with tokens | 20261127-203704-51105f | 3 | 123456   | 99  | 2050000000           | 20000000             | 1764270002000000000  | 1    | 230",
                "zero tokens             | r                    | 0 | 0          | 1   | 1                    | 1                    | 1                    | 0    | 0",
                "negative values         | r                    | -1 | -2        | -3  | -4                   | -5                   | -6                   | -7   | -8",
                "extremes                | r                    | 2147483647 | -2147483648 | 2147483647 | 9223372036854775807 | -9223372036854775808 | 9223372036854775807 | 2147483647 | -2147483648",
                "multi-byte run id       | läuft-日本-🚀          | 1 | 64         | 63  | 128                  | -129                 | 16384                | 8191 | 8192",
            })
    void writesTheSameBytesAsTheTopicsSerializer(
            String why,
            String runId,
            int shard,
            int request,
            int seq,
            long offsetNs,
            long gapNs,
            long epochNs,
            Integer tokens,
            int bytes) {
        Chunk chunk = new Chunk(runId, shard, request, seq, offsetNs, gapNs, epochNs, tokens, bytes);

        assertThat(writer.value(chunk)).isEqualTo(serializer.serialize("tokenpulse.chunks", chunk));
        assertThat(writer.key(chunk))
                .isEqualTo(new StringSerializer().serialize("tokenpulse.chunks", runId + "/" + request));
    }

    @Test
    void keysOfRequestsThatShareASlotAndOfANewRunAreTheirOwn() {
        Chunk a = new Chunk("run-a", 0, 5, 0, 1L, 0L, 1L, null, 1);
        Chunk b = new Chunk("run-a", 0, 5 + 4096, 0, 1L, 0L, 1L, null, 1);
        Chunk c = new Chunk("run-b", 0, 5, 0, 1L, 0L, 1L, null, 1);

        assertThat(key(writer.key(a))).isEqualTo("run-a/5");
        assertThat(key(writer.key(b))).isEqualTo("run-a/4101");
        assertThat(key(writer.key(a))).isEqualTo("run-a/5");
        assertThat(key(writer.key(c))).isEqualTo("run-b/5");
        assertThat(writer.value(c)).isEqualTo(serializer.serialize("t", c));
    }

    @Test
    void aChunkWithoutRunIdFailsAsTheSerializerWould() {
        Chunk chunk = new Chunk();
        assertThatThrownBy(() -> writer.value(chunk)).isInstanceOf(SerializationException.class);
        assertThatThrownBy(() -> serializer.serialize("t", chunk)).isInstanceOf(SerializationException.class);
    }

    @Test
    void standsInOnlyForTheSchemaItWasWrittenFor() {
        assertThat(ChunkWriter.supports(Chunk.getClassSchema())).isTrue();
        Schema withNewField = SchemaBuilder.record("Chunk")
                .fields()
                .requiredString("run_id")
                .requiredInt("shard_index")
                .requiredInt("request_index")
                .requiredInt("seq")
                .requiredLong("offset_ns")
                .requiredLong("gap_ns")
                .requiredLong("arrived_epoch_ns")
                .optionalInt("tokens")
                .requiredInt("bytes")
                .optionalString("added")
                .endRecord();
        Schema retyped = SchemaBuilder.record("Chunk")
                .fields()
                .requiredString("run_id")
                .requiredInt("shard_index")
                .requiredInt("request_index")
                .requiredLong("seq")
                .requiredLong("offset_ns")
                .requiredLong("gap_ns")
                .requiredLong("arrived_epoch_ns")
                .optionalInt("tokens")
                .requiredInt("bytes")
                .endRecord();
        assertThat(ChunkWriter.supports(withNewField)).isFalse();
        assertThat(ChunkWriter.supports(retyped)).isFalse();
        assertThat(ChunkWriter.forSerializer(new StringSerializer())).isNull();
    }

    private static String key(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
