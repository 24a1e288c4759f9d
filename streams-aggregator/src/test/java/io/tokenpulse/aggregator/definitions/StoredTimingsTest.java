package io.tokenpulse.aggregator.definitions;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tokenpulse.schemas.avro.RequestMetrics;
import java.util.List;
import org.junit.jupiter.api.Test;

class StoredTimingsTest {
    private static final long MS = 1_000_000L;
    private static final long SENT = FixtureRun.STORED_SENT_NS;

    @Test
    void eventsAreRebuiltFromTtftAndItl() {
        TimedRequest r = StoredTimings.request(metrics(null, 0));
        assertArrayEquals(new long[] {SENT + 100 * MS, SENT + 110 * MS, SENT + 130 * MS}, r.chunkNs());
        assertArrayEquals(new boolean[3], r.emptyText());
        assertEquals(SENT + 140 * MS, r.endNs());
        assertEquals(3, r.outputTokens());
    }

    @Test
    void eventsBeforeTheFirstAnswerCarriedNoText() {
        // a role-only first event at 100 ms, the answer from 110 ms
        TimedRequest r = StoredTimings.request(metrics(110L, 0));
        assertArrayEquals(new boolean[] {true, false, false}, r.emptyText());
        assertArrayEquals(new long[] {SENT + 110 * MS, SENT + 130 * MS}, r.contentNs());
    }

    @Test
    void thinkingCountsAsText() {
        // GuideLLM and AIPerf count thinking as text: no event is marked empty
        assertArrayEquals(
                new boolean[3], StoredTimings.request(metrics(130L, 2)).emptyText());
    }

    @Test
    void recordedEmptyEventsReplaceTheFirstAnswerRule() {
        // an empty event mid-stream (110 ms) and none before the answer: the record says so
        RequestMetrics m = RequestMetrics.newBuilder(metrics(100L, 0))
                .setEmptyTextEvents(List.of(1))
                .build();
        assertArrayEquals(
                new boolean[] {false, true, false}, StoredTimings.request(m).emptyText());
        // none empty: the events before a thinking model's first answer are its thinking
        RequestMetrics thought = RequestMetrics.newBuilder(metrics(130L, 2))
                .setEmptyTextEvents(List.of())
                .build();
        assertArrayEquals(new boolean[3], StoredTimings.request(thought).emptyText());
    }

    private static RequestMetrics metrics(Long ttfoMs, int reasoningEvents) {
        return FixtureRun.stored(100, List.of(10L, 20L), 140)
                .setTtfoNs(ttfoMs == null ? null : ttfoMs * MS)
                .setReasoningEvents(reasoningEvents)
                .build();
    }
}
