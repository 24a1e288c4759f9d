package io.tokenpulse.aggregator.topology;

import io.tokenpulse.schemas.TopicSpec;
import io.tokenpulse.schemas.avro.Chunk;
import io.tokenpulse.schemas.avro.ChunkBatch;
import io.tokenpulse.schemas.avro.RequestEvent;
import io.tokenpulse.schemas.avro.RequestFinished;
import io.tokenpulse.schemas.avro.RequestMetrics;
import io.tokenpulse.schemas.logging.RepeatedWarning;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.LongStream;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Joins one request's chunks and its RequestFinished (key {@code <run id>/<request index>}, the
 * topics co-partitioned) into exactly one RequestMetrics, once the finish record and all
 * {@code chunk_events} chunks it announces are there, whatever their order. State lives in three
 * cached, changelogged stores and is deleted on emission.
 *
 * <p>State that can never complete expires: chunks that arrive after their request was emitted (or
 * whose finish never comes), and a finish whose announced chunks never all arrive. Expiry runs on
 * <em>stream time</em> (the records' timestamps, i.e. the load generator's clock when it published),
 * not wall-clock time: an aggregator that restarts after an hour, or catches up on a backlog, must
 * not expire requests whose records are still on their way in the backlog. A request's state expires
 * once stream time passed its newest record by {@link Expiry#ttl}; it then goes to the dead-letter
 * topic with a {@link DeadLetters#REASON} (the finish's bytes when there was one, else an empty value)
 * and is counted with the dead-lettered records of its source topic. Stream time only moves with new
 * records, so on an idle aggregator orphans wait for the next run's records to be swept.
 *
 * <p>Chunk offsets are stored in blocks of {@link JoinState.OffsetBlock#SIZE} seqs ({@code
 * <key>/<block>}), not as one growing list: rewriting a list per chunk would write O(n^2) bytes for a
 * long answer, and one entry per chunk made the record cache the stream thread's main cost.
 *
 * <p>The emitted record's {@code sent_epoch_ns} and {@code finished_epoch_ns} still hold offsets
 * from the shard's schedule start; {@link RunSummarizer} adds the shard's anchor (it needs the
 * run's records, which are keyed by run id).
 *
 * <p>A request's events come as chunk records ({@link ChunkSide}), as chunk-batch records of several
 * consecutive events ({@link BatchSide}), or both: either way each seq counts once and only its
 * offset is kept, so both give the same metrics.
 *
 * <p>A chunk's {@code offset_ns} is the only field of it the join keeps: its {@code gap_ns} is the
 * difference of two offsets, which {@link RequestRecords} takes itself.
 */
final class RequestJoin {
    static final String FINISHED_STORE = "request-finished";
    /** Per request: chunks arrived, chunks announced, newest record timestamp ({@link JoinState.Progress}). */
    static final String PROGRESS_STORE = "request-join-progress";
    /** Chunk offsets by {@code <key>/<block>} ({@link JoinState.OffsetBlock}). */
    static final String OFFSETS_STORE = "request-chunk-offset-blocks";
    /** How often expiry looks for orphans, in stream time (at most; never more often than the TTL). */
    static final Duration SWEEP_INTERVAL = Duration.ofMinutes(1);

    private static final Logger LOG = LoggerFactory.getLogger(RequestJoin.class);
    private static final RepeatedWarning EXPIRED = new RepeatedWarning(LOG, "expired join states");

    private RequestJoin() {}

    /** What the join emits for one request: its metrics, or the dead letter of its expired state. */
    sealed interface Outcome permits Joined, Expired {}

    /** Every record of the request arrived: its metrics, times still relative to its shard. */
    record Joined(RequestMetrics metrics) implements Outcome {}

    /**
     * The request's state expired: the value for the dead-letter topic (the finish's bytes, or empty
     * when only chunks were there); the reason is in the record's headers.
     */
    record Expired(byte[] deadLetter) implements Outcome {}

    /**
     * When join state expires and where it goes then.
     *
     * @param ttl         stream time after a request's newest record before its state is dropped;
     *                    must exceed the longest silence within one streamed response (the load
     *                    generator's read-idle limit, 10 min by default)
     * @param requests    the requests topic: an expired finish is dead-lettered in its serialization
     * @param chunksTopic the chunks topic's name: what expired chunk-only state is counted under,
     *                    whether its events came as chunks or as chunk batches. The join state does not
     *                    record which (its store format stays the one older aggregators restore), and one
     *                    counter keeps late events where dashboards and alerts already look for them.
     */
    record Expiry(Duration ttl, TopicSpec<RequestEvent> requests, String chunksTopic) {
        Expiry {
            Objects.requireNonNull(ttl, "ttl");
            Objects.requireNonNull(requests, "requests");
            Objects.requireNonNull(chunksTopic, "chunksTopic");
        }

        Duration sweepInterval() {
            return ttl.compareTo(SWEEP_INTERVAL) < 0 ? ttl : SWEEP_INTERVAL;
        }
    }

    /**
     * Cached stores: a chunk updates its request's progress and offset block, and a request's state
     * is deleted when it is emitted, mostly within one commit interval. The cache keeps those writes
     * in memory until the commit and sends only each key's last value to RocksDB and the changelog,
     * instead of every put and delete. Under exactly-once the cache is flushed before the commit, so
     * what a restart restores still matches the committed input offsets.
     */
    static List<StoreBuilder<?>> stores() {
        return List.of(
                Stores.keyValueStoreBuilder(
                                Stores.persistentKeyValueStore(FINISHED_STORE),
                                Serdes.String(),
                                StoreSerdes.<RequestEvent>avro(RequestEvent.getClassSchema()))
                        .withCachingEnabled(),
                Stores.keyValueStoreBuilder(
                                Stores.persistentKeyValueStore(PROGRESS_STORE),
                                Serdes.String(),
                                JoinState.Progress.serde())
                        .withCachingEnabled(),
                Stores.keyValueStoreBuilder(
                                Stores.persistentKeyValueStore(OFFSETS_STORE),
                                Serdes.String(),
                                JoinState.OffsetBlock.serde())
                        .withCachingEnabled());
    }

    static String[] storeNames() {
        return new String[] {FINISHED_STORE, PROGRESS_STORE, OFFSETS_STORE};
    }

    /** Zero-padded so that the store's byte order is block order. */
    static String blockKey(String requestKey, int block) {
        return StoreKeys.padded(requestKey, block, 10);
    }

    /**
     * The state of the requests of one task, shared by the chunk side and the finish side. Emits a
     * request's metrics, or the dead letter of its expired state.
     */
    private abstract static class Side<V> implements Processor<String, V, String, Outcome> {
        final Expiry expiry;
        private ProcessorContext<String, Outcome> context;
        KeyValueStore<String, RequestEvent> finished;
        KeyValueStore<String, JoinState.Progress> progress;
        KeyValueStore<String, JoinState.OffsetBlock> offsetBlocks;

        Side(Expiry expiry) {
            this.expiry = expiry;
        }

        @Override
        public void init(ProcessorContext<String, Outcome> context) {
            this.context = context;
            finished = context.getStateStore(FINISHED_STORE);
            progress = context.getStateStore(PROGRESS_STORE);
            offsetBlocks = context.getStateStore(OFFSETS_STORE);
        }

        /** Both sides share the stores, so one of them sweeps them. */
        final void scheduleExpiry() {
            context.schedule(expiry.sweepInterval(), PunctuationType.STREAM_TIME, this::expireOlderThanTtl);
        }

        final JoinState.Progress progressOf(String key) {
            JoinState.Progress before = progress.get(key);
            return before == null ? JoinState.Progress.none() : before;
        }

        /** Keeps the request's progress, or emits the request and deletes its state once it is complete. */
        final void advance(String key, JoinState.Progress now, long timestamp) {
            if (!now.complete()) {
                progress.put(key, now);
                return;
            }
            RequestEvent event = finished.get(key);
            long[] eventOffsetNs = collectOffsetsAndDelete(key);
            finished.delete(key);
            progress.delete(key);
            context.forward(new Record<>(key, new Joined(RequestRecords.metrics(event, eventOffsetNs)), timestamp));
        }

        /**
         * Stores the offsets of consecutive events from {@code firstSeq} (each seq once, so a repeat
         * does not count twice), reading and writing each block they fall in once, then advances the
         * request by the events that were new.
         */
        final void joinEvents(Record<String, ?> record, int firstSeq, List<Long> offsetsNs) {
            String key = record.key();
            int added = 0;
            int i = 0;
            while (i < offsetsNs.size()) {
                int seq = firstSeq + i;
                String blockKey = blockKey(key, JoinState.OffsetBlock.blockOf(seq));
                JoinState.OffsetBlock block = offsetBlocks.get(blockKey);
                if (block == null) {
                    block = JoinState.OffsetBlock.empty();
                }
                int end =
                        Math.min(offsetsNs.size(), i + JoinState.OffsetBlock.SIZE - JoinState.OffsetBlock.slotOf(seq));
                int addedToBlock = 0;
                for (; i < end; i++) {
                    if (block.add(firstSeq + i, offsetsNs.get(i))) {
                        addedToBlock++;
                    }
                }
                if (addedToBlock > 0) {
                    offsetBlocks.put(blockKey, block);
                    added += addedToBlock;
                }
            }
            if (added == 0) {
                return;
            }
            advance(key, progressOf(key).withChunks(added, record.timestamp()), record.timestamp());
        }

        private void expireOlderThanTtl(long streamTimeMs) {
            long cutoffMs = streamTimeMs - expiry.ttl().toMillis();
            List<String> expired = new ArrayList<>();
            try (KeyValueIterator<String, JoinState.Progress> it = progress.all()) {
                while (it.hasNext()) {
                    var entry = it.next();
                    if (entry.value.lastSeenMs() < cutoffMs) {
                        expired.add(entry.key);
                    }
                }
            }
            expired.forEach(key -> expire(key, streamTimeMs));
        }

        private void expire(String key, long streamTimeMs) {
            int chunks = collectOffsetsAndDelete(key).length;
            RequestEvent event = finished.get(key);
            finished.delete(key);
            progress.delete(key);
            String topic;
            String reason;
            byte[] value;
            if (event != null) {
                topic = expiry.requests().name();
                reason = "join state expired after " + expiry.ttl() + " of stream time: the finish announced "
                        + ((RequestFinished) event.getEvent()).getChunkEvents() + " chunks, " + chunks + " arrived";
                value = expiry.requests().valueSerde().serializer().serialize(topic, event);
            } else {
                topic = expiry.chunksTopic();
                reason = "join state expired after " + expiry.ttl() + " of stream time: " + chunks
                        + " chunks without a pending finish (they arrived after their request was emitted,"
                        + " or its finish never came)";
                value = new byte[0];
            }
            EXPIRED.warn("dead-lettered the join state of request {}: {}", key, reason);
            DeadLetters.sensor(context.metrics(), topic).record();
            RecordHeaders headers = new RecordHeaders();
            headers.add(DeadLetters.REASON, DeadLetters.utf8(reason))
                    .add(DeadLetters.SOURCE_TOPIC, DeadLetters.utf8(topic));
            context.forward(new Record<>(key, new Expired(value), streamTimeMs, headers));
        }

        // Stream order comes from the zero-padded block number in the key and the seq order within a
        // block; ITL is derived in metrics.
        private long[] collectOffsetsAndDelete(String key) {
            List<long[]> blocks = new ArrayList<>();
            List<String> seen = new ArrayList<>();
            try (KeyValueIterator<String, JoinState.OffsetBlock> it =
                    offsetBlocks.prefixScan(key + "/", new StringSerializer())) {
                while (it.hasNext()) {
                    var entry = it.next();
                    seen.add(entry.key);
                    blocks.add(entry.value.offsetsNs());
                }
            }
            seen.forEach(offsetBlocks::delete);
            return blocks.stream().flatMapToLong(LongStream::of).toArray();
        }
    }

    /** A chunk: remember its arrival offset (once per seq, so a duplicate does not count twice). */
    static final class ChunkSide extends Side<Chunk> {
        ChunkSide(Expiry expiry) {
            super(expiry);
        }

        @Override
        public void process(Record<String, Chunk> record) {
            Chunk chunk = record.value();
            joinEvents(record, chunk.getSeq(), List.of(chunk.getOffsetNs()));
        }
    }

    /**
     * A chunk batch: remember its events' arrival offsets as {@link ChunkSide} does each chunk's, with
     * one store read and write per block the batch touches and one progress update for the batch
     * (fewer records and store operations per event are the point of batches).
     */
    static final class BatchSide extends Side<ChunkBatch> {
        BatchSide(Expiry expiry) {
            super(expiry);
        }

        @Override
        public void process(Record<String, ChunkBatch> record) {
            joinEvents(record, record.value().getFirstSeq(), record.value().getOffsetsNs());
        }
    }

    /** A RequestFinished: it announces how many chunks to wait for. */
    static final class FinishSide extends Side<RequestEvent> {
        FinishSide(Expiry expiry) {
            super(expiry);
        }

        @Override
        public void init(ProcessorContext<String, Outcome> context) {
            super.init(context);
            scheduleExpiry();
        }

        @Override
        public void process(Record<String, RequestEvent> record) {
            finished.put(record.key(), record.value());
            int announced = ((RequestFinished) record.value().getEvent()).getChunkEvents();
            advance(
                    record.key(),
                    progressOf(record.key()).withFinish(announced, record.timestamp()),
                    record.timestamp());
        }
    }
}
