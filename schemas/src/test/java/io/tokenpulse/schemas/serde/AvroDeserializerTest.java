package io.tokenpulse.schemas.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tokenpulse.schemas.avro.Chunk;
import io.tokenpulse.schemas.registry.Compatibility;
import io.tokenpulse.schemas.registry.InMemorySchemaRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AvroDeserializerTest {
    private static final String SUBJECT = "tokenpulse.chunks-value";

    private final InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
    private final AvroSerializer<Chunk> serializer = new AvroSerializer<>(registry, Chunk.class, SUBJECT, true);
    private final AvroDeserializer<Chunk> deserializer = new AvroDeserializer<>(registry, Chunk.class);

    /** Chunk as first published: no {@code tokens} field yet. */
    private static final Schema CHUNK_WITHOUT_TOKENS = withoutField(Chunk.getClassSchema(), "tokens");

    @Test
    void recordWrittenWithOlderSchemaIsReadWithTheNewFieldsDefault() throws IOException {
        int oldId = registry.register(SUBJECT, CHUNK_WITHOUT_TOKENS);
        GenericRecord old = new GenericData.Record(CHUNK_WITHOUT_TOKENS);
        old.put("run_id", "run-0");
        old.put("shard_index", 1);
        old.put("request_index", 2);
        old.put("seq", 3);
        old.put("offset_ns", 4L);
        old.put("gap_ns", 5L);
        old.put("arrived_epoch_ns", 6L);
        old.put("bytes", 7);

        Chunk read = deserializer.deserialize("tokenpulse.chunks", framed(oldId, old));

        assertThat(read)
                .isEqualTo(Chunk.newBuilder()
                        .setRunId("run-0")
                        .setShardIndex(1)
                        .setRequestIndex(2)
                        .setSeq(3)
                        .setOffsetNs(4)
                        .setGapNs(5)
                        .setArrivedEpochNs(6)
                        .setTokens(null)
                        .setBytes(7)
                        .build());
    }

    @Test
    void recordWrittenWithNewerSchemaSkipsTheFieldsTheReaderDoesNotKnow() throws IOException {
        Schema newer = withExtraLongField(Chunk.getClassSchema(), "decode_step_ns");
        int newId = registry.register(SUBJECT, newer);
        GenericRecord record = new GenericData.Record(newer);
        Chunk expected = SampleRecords.chunk();
        for (Schema.Field f : Chunk.getClassSchema().getFields()) {
            record.put(f.name(), expected.get(f.pos()));
        }
        record.put("decode_step_ns", 99L);

        assertThat(deserializer.deserialize("tokenpulse.chunks", framed(newId, record)))
                .isEqualTo(expected);
    }

    @Test
    void writerSchemaTheReaderCannotResolveIsNamedWithTheMissingField() throws IOException {
        registry.setCompatibility(Compatibility.NONE);
        Schema withoutBytes = withoutField(Chunk.getClassSchema(), "bytes");
        int id = registry.register(SUBJECT, withoutBytes);

        byte[] bytes = framed(id, new GenericData.Record(withoutBytes) {
            {
                put("run_id", "r");
                put("shard_index", 0);
                put("request_index", 0);
                put("seq", 0);
                put("offset_ns", 0L);
                put("gap_ns", 0L);
                put("arrived_epoch_ns", 0L);
            }
        });

        assertThatThrownBy(() -> deserializer.deserialize("tokenpulse.chunks", bytes))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("schema id " + id)
                .hasMessageContaining("cannot be read as io.tokenpulse.schemas.avro.Chunk")
                .hasMessageContaining("bytes");
    }

    @Test
    void wrongMagicByteIsNamed() {
        byte[] json = "{\"run_id\":\"r\"}".getBytes();

        assertThatThrownBy(() -> deserializer.deserialize("tokenpulse.chunks", json))
                .isInstanceOf(SerializationException.class)
                .hasMessage("record from topic tokenpulse.chunks starts with byte 0x7b, not the Confluent"
                        + " wire-format magic byte 0x00; it was not written by a schema-registry Avro serializer");
    }

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {0, 1, 4})
    void payloadShorterThanTheHeaderIsRejected(int length) {
        assertThatThrownBy(() -> deserializer.deserialize("tokenpulse.chunks", new byte[length]))
                .isInstanceOf(SerializationException.class)
                .hasMessageStartingWith("record from topic tokenpulse.chunks has " + length + " byte(s),"
                        + " fewer than the 5 of the Confluent wire-format header");
    }

    @Test
    void unknownSchemaIdIsNamed() {
        byte[] bytes = serializer.serialize("tokenpulse.chunks", SampleRecords.chunk());
        ByteBuffer.wrap(bytes).putInt(1, 4242);

        assertThatThrownBy(() -> deserializer.deserialize("tokenpulse.chunks", bytes))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("topic tokenpulse.chunks")
                .hasMessageContaining("schema id 4242 is not known to the schema registry");
    }

    @Test
    void everyTruncationOfAValidRecordFailsWithAClearMessage() {
        byte[] whole = serializer.serialize("tokenpulse.chunks", SampleRecords.chunk());
        for (int length = 5; length < whole.length; length++) {
            byte[] cut = Arrays.copyOf(whole, length);
            assertThatThrownBy(() -> deserializer.deserialize("tokenpulse.chunks", cut))
                    .as("cut to %d of %d bytes", length, whole.length)
                    .isInstanceOf(SerializationException.class)
                    .hasMessageContaining("record from topic tokenpulse.chunks is truncated");
        }
    }

    @Test
    void bytesLeftOverAfterTheRecordAreRejected() {
        byte[] whole = serializer.serialize("tokenpulse.chunks", SampleRecords.chunk());
        byte[] padded = Arrays.copyOf(whole, whole.length + 3);

        assertThatThrownBy(() -> deserializer.deserialize("tokenpulse.chunks", padded))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("bytes left over");
    }

    @Test
    void corruptBodyIsASerializationExceptionNotARuntimeCrash() {
        byte[] bytes = serializer.serialize("tokenpulse.chunks", SampleRecords.chunk());
        bytes[5] = 0x01; // run_id length -1: a negative string length

        assertThatThrownBy(() -> deserializer.deserialize("tokenpulse.chunks", bytes))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("is not a valid Chunk encoded with schema id");
    }

    @Test
    void nullBytesAreANullRecord() {
        assertThat(deserializer.deserialize("tokenpulse.chunks", null)).isNull();
    }

    @Test
    void writerSchemaIsFetchedOncePerId() {
        byte[] bytes = serializer.serialize("tokenpulse.chunks", SampleRecords.chunk());
        AvroDeserializer<Chunk> fresh = new AvroDeserializer<>(registry, Chunk.class);
        fresh.deserialize("tokenpulse.chunks", bytes);
        int calls = registry.calls();

        for (int i = 0; i < 100; i++) {
            fresh.deserialize("tokenpulse.chunks", bytes);
        }

        assertThat(registry.calls()).isEqualTo(calls);
    }

    static byte[] framed(int id, GenericRecord record) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(ByteBuffer.allocate(5).put((byte) 0).putInt(id).array());
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(record.getSchema()).write(record, encoder);
        encoder.flush();
        return out.toByteArray();
    }

    private static Schema withoutField(Schema schema, String name) {
        return copy(
                schema,
                schema.getFields().stream()
                        .filter(f -> !f.name().equals(name))
                        .map(f -> new Schema.Field(f, f.schema()))
                        .toList());
    }

    private static Schema withExtraLongField(Schema schema, String name) {
        var fields = new java.util.ArrayList<>(schema.getFields().stream()
                .map(f -> new Schema.Field(f, f.schema()))
                .toList());
        fields.add(new Schema.Field(name, Schema.create(Schema.Type.LONG), null, 0L));
        return copy(schema, fields);
    }

    private static Schema copy(Schema schema, java.util.List<Schema.Field> fields) {
        return Schema.createRecord(schema.getName(), schema.getDoc(), schema.getNamespace(), false, fields);
    }
}
