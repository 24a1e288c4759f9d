package io.tokenpulse.producer.publish;

import io.tokenpulse.schemas.avro.Chunk;
import io.tokenpulse.schemas.avro.RequestEvent;

/**
 * Where a request's records go: the run's {@link EventPublisher}, or a list in tests. Calls must
 * never block (they run on the I/O threads).
 */
public interface RecordSink {

    void publishRequest(RequestEvent event);

    void publishChunk(Chunk chunk);

    /** This sink, calling {@code onChunk} after each chunk it is handed (e.g. a meter's count). */
    default RecordSink countingChunks(Runnable onChunk) {
        RecordSink sink = this;
        return new RecordSink() {
            @Override
            public void publishRequest(RequestEvent event) {
                sink.publishRequest(event);
            }

            @Override
            public void publishChunk(Chunk chunk) {
                sink.publishChunk(chunk);
                onChunk.run();
            }
        };
    }
}
