package io.tokenpulse.producer;

import io.tokenpulse.schemas.avro.Chunk;
import io.tokenpulse.schemas.avro.RequestEvent;

/**
 * Where a request's records go: the run's {@link io.tokenpulse.producer.publish.EventPublisher},
 * or a list in tests. Calls must never block (they run on the I/O threads).
 */
interface RecordSink {

    void publishRequest(RequestEvent event);

    void publishChunk(Chunk chunk);
}
