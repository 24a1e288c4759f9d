package io.tokenpulse.aggregator.definitions;

import static io.tokenpulse.aggregator.definitions.ScoreRow.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * inference-perf's arithmetic on {@link FixtureRun}, from kubernetes-sigs/inference-perf at 7de5ef2e
 * (inference_perf/apis/streaming_parser.py parse_sse_stream, inference_perf/apis/completion.py,
 * inference_perf/reportgen/base.py summarize_requests).
 */
class InferencePerfDefinitionTest {

    @Test
    void everyRowFollowsInferencePerf() {
        FixtureRun.assertScores(
                new InferencePerfDefinition().score(FixtureRun.RUN),
                Map.ofEntries(
                        Map.entry(TTFT_MEAN, 620.0 / 3),
                        Map.entry(TTFT_MEDIAN, 200.0),
                        Map.entry(TTFT_P99, 317.6),
                        Map.entry(ITL_MEAN, 155.0 / 9),
                        Map.entry(ITL_MEDIAN, 20.0),
                        Map.entry(ITL_P99, 30.0),
                        // TPOT = (last - first chunk)/(N - 1): [60/3, 15/2, 80/4] = [20, 7.5, 20]
                        Map.entry(TPOT_MEAN, 47.5 / 3),
                        Map.entry(TPOT_MEDIAN, 20.0),
                        Map.entry(TPOT_P99, 20.0),
                        // request latency after the stream was read: [165, 220, 410]
                        Map.entry(E2EL_MEAN, 265.0),
                        Map.entry(E2EL_MEDIAN, 220.0),
                        Map.entry(E2EL_P99, 406.2),
                        // total_time: first start (0) to last end of all requests, failed E's 615 included
                        Map.entry(OUTPUT_THROUGHPUT, 12 / 0.615),
                        Map.entry(REQUEST_THROUGHPUT, 3 / 0.615),
                        Map.entry(DURATION, 0.615),
                        Map.entry(SUCCESSFUL, 3.0),
                        Map.entry(FAILED, 2.0),
                        Map.entry(INPUT_TOKENS, 60.0),
                        Map.entry(OUTPUT_TOKENS, 12.0)));
    }

    @Test
    void aRequestWithOneChunkHasNoTtft() {
        TimedRun run = new TimedRun(
                0,
                FixtureRun.ms(100),
                List.of(
                        FixtureRun.request(0, new long[] {10}, new boolean[1], 20, 1, 1, true),
                        FixtureRun.request(0, new long[] {30, 40}, new boolean[2], 50, 2, 1, true)));
        // only the second request has two chunks: TTFT 30, not (10 + 30)/2
        assertEquals(
                30.0, new InferencePerfDefinition().score(run).get(TTFT_MEAN).getAsDouble(), 1e-9);
    }
}
