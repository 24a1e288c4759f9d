package io.tokenpulse.aggregator.topology;

import org.apache.kafka.streams.processor.api.ProcessingContext;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The runs already summarized, each with the timestamp of the record that completed it: written by
 * {@link RunSummarizer}, checked where a run's records come into the run stage ({@link ShardAnchors},
 * {@link ServerSection}), so that a late record of a summarized run leaves no state behind.
 */
final class SummarizedRuns {
    static final String STORE = "completed-runs";

    private final KeyValueStore<String, Long> store;

    SummarizedRuns(ProcessingContext context) {
        store = context.getStateStore(STORE);
    }

    boolean contains(String runId) {
        return store.get(runId) != null;
    }

    void add(String runId, long timestampMs) {
        store.put(runId, timestampMs);
    }
}
