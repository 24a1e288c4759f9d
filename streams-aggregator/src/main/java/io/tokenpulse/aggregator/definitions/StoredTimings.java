package io.tokenpulse.aggregator.definitions;

import io.tokenpulse.aggregator.scoring.RunShards;
import io.tokenpulse.schemas.avro.RequestMetrics;
import java.util.List;

/**
 * A stored run's request metrics as {@link TimedRun}: every time on the run's wall clock (ns since
 * the epoch). Each request's events are rebuilt from its send, its TTFT and its ITL samples (one per
 * streamed event after the first), so they are exactly the events TokenPulse's own (vLLM's) scoring
 * saw. The stored request metrics do not say which events carried empty text, so every event
 * counts as carrying text here: on a run whose server sends empty-text events the tools that skip
 * them would differ a little more than this shows.
 */
public final class StoredTimings {

    private StoredTimings() {}

    /**
     * @param shards   the run's shard records: the run starts at the earliest schedule start
     * @param requests its request metrics; the run ends at the last one's end, as bench's duration
     *     does (the last shard's finish when there are none)
     */
    public static TimedRun of(RunShards shards, List<RequestMetrics> requests) {
        long startNs = shards.scheduleStartEpochNs();
        long endNs = requests.stream()
                .mapToLong(RequestMetrics::getFinishedEpochNs)
                .max()
                .orElse(shards.lastShardFinishEpochNs());
        return new TimedRun(
                startNs,
                Math.max(startNs, endNs),
                requests.stream().map(StoredTimings::request).toList());
    }

    static TimedRequest request(RequestMetrics m) {
        long sent = m.getSentEpochNs();
        long[] chunks;
        if (m.getTtftNs() == null) {
            chunks = new long[0];
        } else {
            List<Long> itl = m.getItlNs();
            chunks = new long[itl.size() + 1];
            chunks[0] = sent + m.getTtftNs();
            for (int i = 0; i < itl.size(); i++) {
                chunks[i + 1] = chunks[i] + itl.get(i);
            }
        }
        long end = Math.max(m.getFinishedEpochNs(), chunks.length == 0 ? sent : chunks[chunks.length - 1]);
        return TimedRequest.of(sent, chunks, end, m.getOutputTokens(), m.getPromptLen(), m.getSuccess());
    }
}
