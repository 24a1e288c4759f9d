package io.tokenpulse.aggregator.topology;

import io.tokenpulse.schemas.avro.Chunk;
import io.tokenpulse.schemas.avro.ChunkBatch;
import io.tokenpulse.schemas.avro.RequestMetrics;
import io.tokenpulse.schemas.avro.RunEvent;
import io.tokenpulse.schemas.avro.RunSummary;
import io.tokenpulse.schemas.avro.WindowMetrics;
import java.util.List;

/**
 * Sees records as they pass through {@link AggregatorTopology} (live metrics hang off it).
 *
 * <p>Threading: called on the Kafka Streams threads, several at once when there are several; an
 * implementation must be thread-safe, must not block and must not throw. Under exactly-once a
 * record is seen again when its transaction is retried, so what a listener counts is live
 * telemetry, not the run's result.
 */
public interface TopologyListener {

    /** Listens to nothing. */
    TopologyListener NONE = new TopologyListener() {};

    /** Shows every record to each of {@code listeners}, in order. */
    static TopologyListener all(List<TopologyListener> listeners) {
        List<TopologyListener> each = List.copyOf(listeners);
        return new TopologyListener() {
            @Override
            public void onChunk(Chunk chunk) {
                each.forEach(l -> l.onChunk(chunk));
            }

            @Override
            public void onChunkBatch(ChunkBatch batch) {
                each.forEach(l -> l.onChunkBatch(batch));
            }

            @Override
            public void onRunEvent(RunEvent event) {
                each.forEach(l -> l.onRunEvent(event));
            }

            @Override
            public void onRequestMetrics(RequestMetrics metrics) {
                each.forEach(l -> l.onRequestMetrics(metrics));
            }

            @Override
            public void onWindowMetrics(WindowMetrics window) {
                each.forEach(l -> l.onWindowMetrics(window));
            }

            @Override
            public void onRunSummary(RunSummary summary) {
                each.forEach(l -> l.onRunSummary(summary));
            }
        };
    }

    /** A decoded chunk, before the request join. */
    default void onChunk(Chunk chunk) {}

    /** A decoded chunk batch (several events of one request), before the request join. */
    default void onChunkBatch(ChunkBatch batch) {}

    /** A shard's run record, on the instance that runs that run's summary stage. */
    default void onRunEvent(RunEvent event) {}

    /** A request's metrics with epoch times resolved, as written to the request-metrics topic. */
    default void onRequestMetrics(RequestMetrics metrics) {}

    /** An update of one run's window, as written to the window-metrics topic. */
    default void onWindowMetrics(WindowMetrics window) {}

    /** A run's summary, as written to the run-summaries topic. */
    default void onRunSummary(RunSummary summary) {}
}
