package io.tokenpulse.schemas.serde;

import static org.assertj.core.api.Assertions.assertThat;

import io.tokenpulse.schemas.registry.InMemorySchemaRegistry;
import java.util.stream.Stream;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serde;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class AvroSerdeRoundTripTest {

    static Stream<Arguments> everyGeneratedClass() {
        return Stream.of(
                        SampleRecords.chunk(),
                        SampleRecords.chunkWithoutTokens(),
                        SampleRecords.runEventStarted(),
                        SampleRecords.runEventFinished(),
                        SampleRecords.runStarted(),
                        SampleRecords.runFinished(),
                        SampleRecords.requestEventStarted(),
                        SampleRecords.requestEventFinished(),
                        SampleRecords.requestStarted(),
                        SampleRecords.requestFinished(),
                        SampleRecords.requestMetrics(),
                        SampleRecords.windowMetrics(),
                        SampleRecords.windowLatency(),
                        SampleRecords.runSummary(),
                        SampleRecords.metricSummary(),
                        SampleRecords.percentileValue())
                .map(record -> Arguments.of(record.getClass().getSimpleName(), record));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyGeneratedClass")
    void recordReadsBackEqualAndFramedInConfluentWireFormat(String name, SpecificRecord record) {
        InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
        Serde<SpecificRecord> serde = serdeFor(registry, record);

        byte[] bytes = serde.serializer().serialize("topic", record);
        SpecificRecord back = serde.deserializer().deserialize("topic", bytes);

        assertThat(back).isEqualTo(record);
        assertThat(bytes[0]).as("magic byte").isZero();
        int id = ((bytes[1] & 0xff) << 24) | ((bytes[2] & 0xff) << 16) | ((bytes[3] & 0xff) << 8) | (bytes[4] & 0xff);
        assertThat(registry.latest("topic-value")).hasValueSatisfying(r -> {
            assertThat(r.id()).isEqualTo(id);
            assertThat(r.schema()).isEqualTo(record.getSchema());
        });
    }

    @SuppressWarnings("unchecked")
    private static Serde<SpecificRecord> serdeFor(InMemorySchemaRegistry registry, SpecificRecord r) {
        return AvroSerdes.serde(registry, (Class<SpecificRecord>) r.getClass(), "topic-value", true);
    }
}
