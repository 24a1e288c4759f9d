package io.tokenpulse.schemas.serde;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.EncoderFactory;

/**
 * One record's Avro binary, written into an output buffer and a buffered encoder that each thread
 * keeps between records: a fresh stream with Avro's direct encoder grew its array a write at a time
 * (15 % of the aggregator's stream thread in a catch-up, docs/performance.md). A buffer that one large
 * record (a long generated text, a run's state) grew past 1 MiB is dropped rather than kept for the
 * thread's life. Used by the wire-format {@link AvroSerializer} and by the aggregator's state stores.
 */
public final class ThreadAvroBuffer {
    private static final int MAX_KEPT_BUFFER_BYTES = 1 << 20;
    private static final byte[] ZEROS = new byte[WireFormat.HEADER_BYTES];
    private static final ThreadLocal<ThreadAvroBuffer> PER_THREAD = ThreadLocal.withInitial(ThreadAvroBuffer::new);

    private final Output out = new Output();
    private BinaryEncoder encoder;

    private ThreadAvroBuffer() {}

    /**
     * A copy of {@code value}'s Avro binary after {@code headerBytes} zero bytes, which the caller
     * may fill in (at most {@link WireFormat#HEADER_BYTES}).
     */
    public static <T> byte[] write(DatumWriter<T> writer, T value, int headerBytes) throws IOException {
        if (headerBytes < 0 || headerBytes > ZEROS.length) {
            throw new IllegalArgumentException("headerBytes must be 0 to " + ZEROS.length + ", got " + headerBytes);
        }
        ThreadAvroBuffer thread = PER_THREAD.get();
        try {
            thread.out.reset();
            thread.out.write(ZEROS, 0, headerBytes);
            thread.encoder = EncoderFactory.get().binaryEncoder(thread.out, thread.encoder);
            writer.write(value, thread.encoder);
            thread.encoder.flush();
            return thread.out.toByteArray();
        } finally {
            if (thread.out.capacity() > MAX_KEPT_BUFFER_BYTES) {
                PER_THREAD.remove();
            }
        }
    }

    private static final class Output extends ByteArrayOutputStream {
        Output() {
            super(8192);
        }

        int capacity() {
            return buf.length;
        }
    }
}
