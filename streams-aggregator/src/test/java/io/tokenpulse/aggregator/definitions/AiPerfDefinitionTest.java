package io.tokenpulse.aggregator.definitions;

import static io.tokenpulse.aggregator.definitions.ScoreRow.*;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * AIPerf's arithmetic on {@link FixtureRun}, from ai-dynamo/aiperf at db4f6397
 * (aiperf/metrics/types/ttft_metric.py, inter_token_latency_metric.py, request_latency_metric.py,
 * benchmark_duration_metric.py, request_throughput_metric.py, output_token_throughput_metric.py).
 */
class AiPerfDefinitionTest {

    @Test
    void everyRowFollowsAiPerf() {
        FixtureRun.assertScores(
                new AiPerfDefinition().score(FixtureRun.RUN),
                Map.ofEntries(
                        // valid requests A, B, C; responses with text only: TTFT [100, 200, 320]
                        Map.entry(TTFT_MEAN, 620.0 / 3),
                        Map.entry(TTFT_MEDIAN, 200.0),
                        Map.entry(TTFT_P99, 317.6),
                        // ITL = (latency - TTFT)/(OSL - 1): [(160-100)/3, (215-200)/2, (400-320)/4] = [20, 7.5, 20],
                        // unweighted
                        Map.entry(ITL_MEAN, 47.5 / 3),
                        Map.entry(ITL_MEDIAN, 20.0),
                        Map.entry(ITL_P99, 20.0),
                        // request latency to the last response with text: [160, 215, 400]
                        Map.entry(E2EL_MEAN, 775.0 / 3),
                        Map.entry(E2EL_MEDIAN, 215.0),
                        Map.entry(E2EL_P99, 396.3),
                        // duration: first valid send (0) to last valid response (500) = 0.5 s; 12 tokens, 3 requests
                        Map.entry(OUTPUT_THROUGHPUT, 24.0),
                        Map.entry(REQUEST_THROUGHPUT, 6.0),
                        Map.entry(DURATION, 0.5),
                        Map.entry(SUCCESSFUL, 3.0),
                        Map.entry(FAILED, 2.0),
                        Map.entry(INPUT_TOKENS, 60.0),
                        Map.entry(OUTPUT_TOKENS, 12.0)));
    }
}
