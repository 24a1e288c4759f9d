package io.tokenpulse.aggregator.topology;

import io.tokenpulse.schemas.avro.Chunk;
import io.tokenpulse.schemas.avro.RequestEvent;
import io.tokenpulse.schemas.avro.RequestFinished;
import io.tokenpulse.schemas.avro.RequestMetrics;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * Joins one request's chunks and its RequestFinished (key {@code <run id>/<request index>}, the
 * two topics co-partitioned) into exactly one RequestMetrics, once the finish record and all
 * {@code chunk_events} chunks it announces are there, whatever their order. State lives in three
 * changelogged stores and is deleted on emission.
 *
 * <p>Each chunk is its own store entry ({@code <key>/<seq>}), not an element of one growing list:
 * rewriting a list per chunk would write O(n^2) bytes to the changelog for a long answer.
 *
 * <p>The emitted record's {@code sent_epoch_ns} and {@code finished_epoch_ns} still hold offsets
 * from the shard's schedule start; {@link EpochResolver} adds the shard's anchor (it needs the
 * run's records, which are keyed by run id).
 */
final class RequestJoin {
    static final String FINISHED_STORE = "request-finished";
    static final String CHUNK_STORE = "request-chunk-offsets";
    static final String COUNT_STORE = "request-chunk-counts";

    private RequestJoin() {
    }

    static List<StoreBuilder<?>> stores() {
        return List.of(
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(FINISHED_STORE),
                        Serdes.String(), StoreSerdes.<RequestEvent>avro(RequestEvent.getClassSchema())),
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(CHUNK_STORE),
                        Serdes.String(), Serdes.Long()),
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(COUNT_STORE),
                        Serdes.String(), Serdes.Integer()));
    }

    static String[] storeNames() {
        return new String[] {FINISHED_STORE, CHUNK_STORE, COUNT_STORE};
    }

    /** Zero-padded so that the store's byte order is stream order. */
    static String chunkKey(String requestKey, int seq) {
        return String.format("%s/%010d", requestKey, seq);
    }

    /** The state of the requests of one task, shared by the chunk side and the finish side. */
    private abstract static class Side<V> implements Processor<String, V, String, RequestMetrics> {
        private ProcessorContext<String, RequestMetrics> context;
        KeyValueStore<String, RequestEvent> finished;
        KeyValueStore<String, Long> offsetsNs;
        KeyValueStore<String, Integer> counts;

        @Override
        public void init(ProcessorContext<String, RequestMetrics> context) {
            this.context = context;
            finished = context.getStateStore(FINISHED_STORE);
            offsetsNs = context.getStateStore(CHUNK_STORE);
            counts = context.getStateStore(COUNT_STORE);
        }

        final void emitIfComplete(String key, long timestamp) {
            RequestEvent event = finished.get(key);
            if (event == null) {
                return;
            }
            RequestFinished finish = (RequestFinished) event.getEvent();
            int arrived = counts.get(key) == null ? 0 : counts.get(key);
            if (arrived < finish.getChunkEvents()) {
                return;
            }
            long[] eventOffsetNs = collectOffsetsAndDelete(key);
            finished.delete(key);
            counts.delete(key);
            context.forward(new Record<>(key, RequestRecords.metrics(event, eventOffsetNs), timestamp));
        }

        // Stream order comes from the zero-padded seq in the key; ITL is derived in metrics.
        private long[] collectOffsetsAndDelete(String key) {
            List<Long> offsets = new ArrayList<>();
            List<String> seen = new ArrayList<>();
            try (KeyValueIterator<String, Long> it = offsetsNs.prefixScan(key + "/", new StringSerializer())) {
                while (it.hasNext()) {
                    var entry = it.next();
                    seen.add(entry.key);
                    offsets.add(entry.value);
                }
            }
            seen.forEach(offsetsNs::delete);
            return offsets.stream().mapToLong(Long::longValue).toArray();
        }
    }

    /** A chunk: remember its arrival offset (once per seq, so a duplicate does not count twice). */
    static final class ChunkSide extends Side<Chunk> {
        @Override
        public void process(Record<String, Chunk> record) {
            String offsetKey = chunkKey(record.key(), record.value().getSeq());
            if (offsetsNs.get(offsetKey) != null) {
                return;
            }
            offsetsNs.put(offsetKey, record.value().getOffsetNs());
            Integer before = counts.get(record.key());
            counts.put(record.key(), before == null ? 1 : before + 1);
            emitIfComplete(record.key(), record.timestamp());
        }
    }

    /** A RequestFinished: it announces how many chunks to wait for. */
    static final class FinishSide extends Side<RequestEvent> {
        @Override
        public void process(Record<String, RequestEvent> record) {
            finished.put(record.key(), record.value());
            emitIfComplete(record.key(), record.timestamp());
        }
    }
}
