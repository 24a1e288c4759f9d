package io.tokenpulse.aggregator.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.tokenpulse.schemas.avro.RequestMetrics;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.kafka.common.serialization.Serde;
import org.junit.jupiter.api.Test;

/**
 * State is read back by a restarted or upgraded aggregator: the serde's reused per-thread buffer
 * writes plain Avro binary, byte for byte, whatever the thread wrote before.
 */
class StoreSerdesTest {
    private static final Serde<RequestMetrics> SERDE = StoreSerdes.avro(RequestMetrics.getClassSchema());

    @Test
    void writesPlainAvroBinaryAndReadsItBack() throws IOException {
        RequestMetrics request = request(100);

        byte[] bytes = SERDE.serializer().serialize("t", request);

        assertThat(bytes).isEqualTo(plainAvro(request));
        assertThat(SERDE.deserializer().deserialize("t", bytes)).isEqualTo(request);
    }

    @Test
    void aSmallValueAfterALargeOneIsNotPaddedWithTheLargeOnesBytes() throws IOException {
        // 300 000 ITLs: past the 1 MiB a thread keeps, then past the encoder's own buffer again
        RequestMetrics large = request(300_000);
        RequestMetrics small = request(3);

        byte[] largeBytes = SERDE.serializer().serialize("t", large);
        byte[] smallBytes = SERDE.serializer().serialize("t", small);
        byte[] largeAgain = SERDE.serializer().serialize("t", large);

        assertThat(largeBytes).isEqualTo(plainAvro(large)).isEqualTo(largeAgain);
        assertThat(smallBytes).isEqualTo(plainAvro(small));
        assertThat(SERDE.deserializer().deserialize("t", smallBytes)).isEqualTo(small);
    }

    @Test
    void streamThreadsWritingAtOnceEachGetTheirOwnValue() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Callable<Boolean>> writers = IntStream.range(0, 4)
                    .<Callable<Boolean>>mapToObj(t -> () -> {
                        for (int i = 0; i < 2_000; i++) {
                            RequestMetrics request = request(1 + (t * 7 + i) % 50);
                            byte[] bytes = SERDE.serializer().serialize("t", request);
                            if (!SERDE.deserializer().deserialize("t", bytes).equals(request)) {
                                return false;
                            }
                        }
                        return true;
                    })
                    .toList();
            for (Future<Boolean> done : threads.invokeAll(writers)) {
                assertThat(done.get()).isTrue();
            }
        } finally {
            threads.shutdownNow();
        }
    }

    private static byte[] plainAvro(RequestMetrics request) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        new SpecificDatumWriter<RequestMetrics>(RequestMetrics.getClassSchema()).write(request, encoder);
        encoder.flush();
        return out.toByteArray();
    }

    private static RequestMetrics request(int itls) {
        return RequestMetrics.newBuilder()
                .setRunId("r1")
                .setShardIndex(0)
                .setRequestIndex(itls)
                .setRequestId("id-" + itls)
                .setSuccess(true)
                .setHttpStatus(200)
                .setError("")
                .setPromptLen(10)
                .setOutputTokens(itls + 1)
                .setTtftNs(100_000_000L)
                .setE2elNs(200_000_000L)
                .setTpotNs(1e6)
                .setTokenLatencyNs(1e6)
                .setQueueDelayNs(0L)
                .setConnectNs(0)
                .setItlNs(Collections.nCopies(itls, 123_456_789L))
                .setSentEpochNs(1_700_000_000_000_000_000L)
                .setFinishedEpochNs(1_700_000_000_200_000_000L)
                .build();
    }
}
