package io.tokenpulse.aggregator.definitions;

import io.tokenpulse.aggregator.scoring.RunShards;
import io.tokenpulse.schemas.avro.RequestMetrics;
import java.util.List;

/**
 * A stored run's request metrics as {@link TimedRun}: every time on the run's wall clock (ns since
 * the epoch). Each request's events are rebuilt from its send, its TTFT and its ITL samples (one per
 * streamed event after the first), so they are exactly the events TokenPulse's own (vLLM's) scoring
 * saw. The events that carried no text are the ones the record lists in {@code empty_text_events}
 * (neither answer text nor thinking; thinking counts as text, as GuideLLM and AIPerf count it).
 *
 * <p>A record stored before that field existed (it reads null) says only when the first event with
 * answer text arrived ({@code ttfo_ns}): without a reasoning model's thinking, the events before it
 * are marked empty and every later one counts as carrying text, so an empty event in the middle of a
 * stream, or one that arrived in the same read as the first answer (the same timestamp), is not
 * seen; with thinking or without {@code ttfo_ns}, every event counts as carrying text.
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

    /**
     * As {@link #of(RunShards, List)} for a run whose shard records are not at hand ({@code bench
     * --report}, a scored run): the start counted back from the last request's end by the summary's
     * {@code duration_ns}, which runs from the earliest schedule start to that end.
     */
    public static TimedRun ofDuration(long durationNs, List<RequestMetrics> requests) {
        long endNs = requests.stream()
                .mapToLong(RequestMetrics::getFinishedEpochNs)
                .max()
                .orElse(0);
        return new TimedRun(
                endNs - durationNs,
                endNs,
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
        boolean[] emptyText = new boolean[chunks.length];
        if (m.getEmptyTextEvents() != null) {
            for (int i : m.getEmptyTextEvents()) {
                if (i >= 0 && i < chunks.length) { // a request the join failed for impossible timing has no events
                    emptyText[i] = true;
                }
            }
        } else if (m.getTtfoNs() != null && m.getReasoningEvents() == 0) {
            long firstAnswer = sent + m.getTtfoNs();
            for (int i = 0; i < chunks.length && chunks[i] < firstAnswer; i++) {
                emptyText[i] = true;
            }
        }
        long end = Math.max(m.getFinishedEpochNs(), chunks.length == 0 ? sent : chunks[chunks.length - 1]);
        return new TimedRequest(sent, chunks, emptyText, end, m.getOutputTokens(), m.getPromptLen(), m.getSuccess());
    }
}
