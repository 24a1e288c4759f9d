package io.tokenpulse.producer.publish;

import java.time.Duration;
import java.util.Objects;

/**
 * How the publisher turns streamed events into Kafka records.
 *
 * <p>By default a request's consecutive events go out as one {@code ChunkBatch} record (topic
 * {@code chunk-batches}) at most {@code batchInterval} after the first of them, and at once when the
 * request finishes: every event's timing stays exact, and the broker and the aggregator handle a record
 * per request per interval instead of one per event (their per-record cost was most of the live
 * pipeline's, issue 30). {@link Layout#PER_EVENT} keeps one {@code Chunk} record per event (topic
 * {@code chunks}) for consumers that read that topic.
 *
 * @param layout        one record per batch of events, or per event
 * @param batchInterval how long a batch gathers a request's events at most (batched layout)
 */
public record ChunkRecords(Layout layout, Duration batchInterval) {

    /** 100 ms: a stream at 50 tokens/s sends a record per 5 events; the aggregator commits every 250 ms anyway. */
    public static final Duration DEFAULT_BATCH_INTERVAL = Duration.ofMillis(100);

    public static final ChunkRecords DEFAULT = new ChunkRecords(Layout.BATCHED, DEFAULT_BATCH_INTERVAL);

    /** One record per event, on the chunks topic. */
    public static final ChunkRecords PER_EVENT = new ChunkRecords(Layout.PER_EVENT, DEFAULT_BATCH_INTERVAL);

    public ChunkRecords {
        Objects.requireNonNull(layout, "layout");
        Objects.requireNonNull(batchInterval, "batchInterval");
        if (batchInterval.isNegative()) {
            throw new IllegalArgumentException(
                    "the chunk batch interval must be >= 0 ms; got " + batchInterval.toMillis());
        }
    }

    public boolean batched() {
        return layout == Layout.BATCHED;
    }

    /** The record layouts, by the name {@code bench --chunk-records} takes. */
    public enum Layout {
        BATCHED("batched"),
        PER_EVENT("per-event");

        private final String flagValue;

        Layout(String flagValue) {
            this.flagValue = flagValue;
        }

        public String flagValue() {
            return flagValue;
        }

        @Override
        public String toString() {
            return flagValue;
        }
    }
}
