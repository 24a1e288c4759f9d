package io.tokenpulse.aggregator.definitions;

import static io.tokenpulse.aggregator.definitions.ScoreRow.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * vLLM's arithmetic on {@link FixtureRun}, from local-inference-lab/vllm at 28be48fa,
 * vllm/benchmarks/serve.py calculate_metrics: successful requests A, B, C; every event counts (C's
 * empty first event too).
 */
class VllmDefinitionTest {

    private final ToolScores scores = new VllmDefinition().score(FixtureRun.RUN);

    @Test
    void ttftCountsTheFirstEventEvenWithEmptyText() {
        // ttfts = [100, 200, 300]: C's TTFT is its empty event at 400 - 100. np.percentile(.., 99) = 200 + 0.98*100.
        assertEquals(200.0, scores.get(TTFT_MEAN).getAsDouble(), 1e-9);
        assertEquals(298.0, scores.get(TTFT_P99).getAsDouble(), 1e-9);
    }

    @Test
    void itlPoolsEveryGapOfEveryRequest() {
        // itls = [10,20,30] + [5,10] + [20,10,20,30,20]: mean 175/10, median 20, P99 30.
        assertEquals(17.5, scores.get(ITL_MEAN).getAsDouble(), 1e-9);
        assertEquals(20.0, scores.get(ITL_MEDIAN).getAsDouble(), 1e-9);
        assertEquals(30.0, scores.get(ITL_P99).getAsDouble(), 1e-9);
    }

    @Test
    void everyRowIsNumpyOnSuccessfulRequestsOverTheRun() {
        FixtureRun.assertScores(
                scores,
                Map.ofEntries(
                        Map.entry(TTFT_MEAN, 200.0),
                        Map.entry(TTFT_MEDIAN, 200.0),
                        Map.entry(TTFT_P99, 298.0),
                        Map.entry(ITL_MEAN, 17.5),
                        Map.entry(ITL_MEDIAN, 20.0),
                        Map.entry(ITL_P99, 30.0),
                        // tpots = [(160-100)/3, (215-200)/2, (400-300)/4] = [20, 7.5, 25]
                        Map.entry(TPOT_MEAN, 17.5),
                        Map.entry(TPOT_MEDIAN, 20.0),
                        Map.entry(TPOT_P99, 24.9),
                        // latencies end at the last event: [160, 215, 400]
                        Map.entry(E2EL_MEAN, 775.0 / 3),
                        Map.entry(E2EL_MEDIAN, 215.0),
                        Map.entry(E2EL_P99, 396.3),
                        // 12 tokens and 3 requests over 1 s
                        Map.entry(OUTPUT_THROUGHPUT, 12.0),
                        Map.entry(REQUEST_THROUGHPUT, 3.0),
                        Map.entry(DURATION, 1.0),
                        Map.entry(SUCCESSFUL, 3.0),
                        Map.entry(FAILED, 2.0),
                        Map.entry(INPUT_TOKENS, 60.0),
                        Map.entry(OUTPUT_TOKENS, 12.0)));
    }

    @Test
    void aSuccessfulRequestWithoutEventsCountsTtftZero() {
        TimedRun run = new TimedRun(
                0, FixtureRun.ms(10), List.of(FixtureRun.request(0, new long[0], new boolean[0], 10, 0, 1, true)));
        assertEquals(0.0, new VllmDefinition().score(run).get(TTFT_MEAN).getAsDouble());
    }
}
