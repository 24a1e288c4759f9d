package io.tokenpulse.aggregator.topology;

import io.tokenpulse.aggregator.metrics.ServerAccumulator;
import io.tokenpulse.schemas.serde.ThreadAvroBuffer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * Serdes for state stores and repartition topics, which only this application reads: plain Avro
 * binary of the generated classes, without the registry's 5-byte header. Written here rather than
 * borrowed from the topic serdes because internal topics need no registry round trip or subject,
 * and a restore must not depend on the registry being up.
 */
final class StoreSerdes {
    private StoreSerdes() {}

    /** A persistent key-value store with run-keyed String keys and {@code values}, logged to its changelog. */
    static <V> StoreBuilder<KeyValueStore<String, V>> persistent(String name, Serde<V> values) {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(name), Serdes.String(), values);
    }

    static <T extends SpecificRecord> Serde<T> avro(Schema schema) {
        SpecificDatumWriter<T> writer = new SpecificDatumWriter<>(schema);
        SpecificDatumReader<T> reader = new SpecificDatumReader<>(schema);
        return Serdes.serdeFrom(
                (topic, value) -> value == null ? null : write(writer, value),
                (topic, bytes) -> bytes == null ? null : read(reader, bytes));
    }

    /** A run's server section as {@link ServerAccumulator#write} writes it. */
    static Serde<ServerAccumulator> serverAccumulator() {
        return Serdes.serdeFrom(
                (topic, value) -> {
                    if (value == null) {
                        return null;
                    }
                    ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
                    try (DataOutputStream out = new DataOutputStream(bytes)) {
                        value.write(out);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    return bytes.toByteArray();
                },
                (topic, bytes) -> {
                    if (bytes == null) {
                        return null;
                    }
                    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
                        return ServerAccumulator.read(in);
                    } catch (IOException e) {
                        throw new UncheckedIOException("corrupt server section state: " + e.getMessage(), e);
                    }
                });
    }

    private static <T> byte[] write(SpecificDatumWriter<T> writer, T value) {
        try {
            return ThreadAvroBuffer.write(writer, value, 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static <T> T read(SpecificDatumReader<T> reader, byte[] bytes) {
        BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(bytes, null);
        try {
            return reader.read(null, decoder);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
