package io.tokenpulse.aggregator.definitions;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tokenpulse.schemas.avro.RequestMetrics;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A stored request whose stream had empty events in the middle and at the end, scored through
 * {@link StoredTimings} as {@code rescore} scores it, by each tool's definition (the rules and sources
 * in each definition's class comment). In ms after the send:
 * <pre>
 * events  100*  120  150*  160  200  230*      (* = empty text: role-only, mid-stream, finish_reason)
 * close   240, N = 3
 * </pre>
 * The events with text are 120, 160 and 200. vLLM keeps every event: TTFT 100, gaps [20, 30, 10, 40,
 * 30], E2EL at the last event (230). The other four skip the empty ones.
 */
class EmptyTextEventsTest {
    private static final long MS = 1_000_000L;

    private static final TimedRun RUN = run(List.of(0, 2, 5));

    @Test
    void vllmCountsEveryEvent() {
        // gaps sorted [10, 20, 30, 30, 40]: mean 26, median 30, P99 = 30 + 0.96 * 10 (index 3.96)
        // TPOT (E2EL - TTFT)/(N - 1) = (230 - 100)/2
        assertRows(
                new VllmDefinition(),
                Map.of(
                        ScoreRow.TTFT_MEAN, 100.0,
                        ScoreRow.ITL_MEAN, 26.0,
                        ScoreRow.ITL_MEDIAN, 30.0,
                        ScoreRow.ITL_P99, 39.6,
                        ScoreRow.TPOT_MEAN, 65.0,
                        ScoreRow.E2EL_MEAN, 230.0));
    }

    @Test
    void guideLlmCountsOnlyTokenIterations() {
        // TTFT 120; ITL (200 - 120)/(3 - 1) = 40; TPOT (200 - 0)/3; latency to the close
        assertRows(
                new GuideLlmDefinition(),
                Map.of(
                        ScoreRow.TTFT_MEAN, 120.0,
                        ScoreRow.ITL_MEAN, 40.0,
                        ScoreRow.TPOT_MEAN, 200.0 / 3,
                        ScoreRow.E2EL_MEAN, 240.0));
    }

    @Test
    void aiPerfEndsTheRequestAtItsLastResponseWithText() {
        // TTFT 120; latency 200 (the trailing empty event does not count); ITL (200 - 120)/(3 - 1)
        assertRows(
                new AiPerfDefinition(),
                Map.of(
                        ScoreRow.TTFT_MEAN, 120.0,
                        ScoreRow.ITL_MEAN, 40.0,
                        ScoreRow.E2EL_MEAN, 200.0));
    }

    @Test
    void sglangPoolsTheGapsBetweenLinesWithText() {
        // gaps [40, 40]; TPOT (240 - 120)/(3 - 1): its latency runs to the stream's end
        assertRows(
                new SglangDefinition(),
                Map.of(
                        ScoreRow.TTFT_MEAN, 120.0,
                        ScoreRow.ITL_MEAN, 40.0,
                        ScoreRow.ITL_P99, 40.0,
                        ScoreRow.TPOT_MEAN, 60.0,
                        ScoreRow.E2EL_MEAN, 240.0));
    }

    @Test
    void inferencePerfTimesOnlyChunksWithText() {
        // gaps [40, 40]; TPOT (200 - 120)/(3 - 1)
        assertRows(
                new InferencePerfDefinition(),
                Map.of(
                        ScoreRow.TTFT_MEAN, 120.0,
                        ScoreRow.ITL_MEAN, 40.0,
                        ScoreRow.ITL_P99, 40.0,
                        ScoreRow.TPOT_MEAN, 40.0,
                        ScoreRow.E2EL_MEAN, 240.0));
    }

    @Test
    void aRunStoredBeforeTheFieldSeesOnlyTheEmptyEventsBeforeTheFirstAnswer() {
        // ttfo_ns (120) marks 100 empty; 150 and 230 count as text: SGLang's gaps [30, 10, 40, 30],
        // AIPerf's latency 230 and ITL (230 - 120)/2
        TimedRun older = run(null);
        assertEquals(
                27.5, new SglangDefinition().score(older).get(ScoreRow.ITL_MEAN).getAsDouble(), 1e-9);
        assertEquals(
                55.0, new AiPerfDefinition().score(older).get(ScoreRow.ITL_MEAN).getAsDouble(), 1e-9);
        assertEquals(
                120.0,
                new AiPerfDefinition().score(older).get(ScoreRow.TTFT_MEAN).getAsDouble(),
                1e-9);
    }

    private static void assertRows(Definition definition, Map<ScoreRow, Double> expected) {
        ToolScores scores = definition.score(RUN);
        expected.forEach((row, value) ->
                assertEquals(value, scores.get(row).getAsDouble(), 1e-9, definition.name() + " " + row.label()));
    }

    /** @param emptyTextEvents the record's field; null for a run stored before it existed */
    private static TimedRun run(List<Integer> emptyTextEvents) {
        RequestMetrics m = FixtureRun.stored(100, List.of(20L, 30L, 10L, 40L, 30L), 240)
                .setTtfoNs(120 * MS)
                .setEmptyTextEvents(emptyTextEvents)
                .build();
        return StoredTimings.ofDuration(1000 * MS, List.of(m));
    }
}
