package io.tokenpulse.aggregator.definitions;

import static io.tokenpulse.aggregator.definitions.ScoreRow.*;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * GuideLLM's arithmetic on {@link FixtureRun}, from vllm-project/guidellm at ee7a7745
 * (src/guidellm/schemas/request_stats.py, src/guidellm/benchmark/schemas/metrics.py) and its
 * statistics at 03820eba (src/guidellm/schemas/statistics.py: DistributionSummary.from_values,
 * Percentiles.from_pdf, rate_distribution_from_timings).
 */
class GuideLlmDefinitionTest {

    @Test
    void everyRowFollowsGuideLlm() {
        FixtureRun.assertScores(
                new GuideLlmDefinition().score(FixtureRun.RUN),
                Map.ofEntries(
                        // TTFT at the first event with text: [100, 200, 320] (C's empty event is no token iteration).
                        // Nearest rank: cdf [1/3, 2/3, 1]; p50 -> 200, p99 -> 320; no interpolation.
                        Map.entry(TTFT_MEAN, 620.0 / 3),
                        Map.entry(TTFT_MEDIAN, 200.0),
                        Map.entry(TTFT_P99, 320.0),
                        // ITL = (last - first)/(N - 1) weighted by N - 1: values [20, 7.5, 20] weights [3, 2, 4];
                        // mean = (60 + 15 + 80)/9; merged pdf {7.5: 2/9, 20: 7/9}: p50 and p99 -> 20.
                        Map.entry(ITL_MEAN, 155.0 / 9),
                        Map.entry(ITL_MEDIAN, 20.0),
                        Map.entry(ITL_P99, 20.0),
                        // TPOT = (last - sent)/N weighted by N: [160/4, 215/3, 400/5] = [40, 71.67, 80], weights [4, 3,
                        // 5];
                        // mean = (160 + 215 + 400)/12; cdf [4/12, 7/12, 1]: p50 -> 71.67, p99 -> 80.
                        Map.entry(TPOT_MEAN, 775.0 / 12),
                        Map.entry(TPOT_MEDIAN, 215.0 / 3),
                        Map.entry(TPOT_P99, 80.0),
                        // request latency to the stream's close: [165, 220, 410]
                        Map.entry(E2EL_MEAN, 265.0),
                        Map.entry(E2EL_MEDIAN, 220.0),
                        Map.entry(E2EL_P99, 410.0),
                        // status "total": A, B, C and the cut-off E produced 4+3+5+2 = 14 tokens between the run's
                        // first
                        // token (100) and its last (610): 14/0.51 s. Requests/s: 5 request ends in the 1 s window.
                        Map.entry(OUTPUT_THROUGHPUT, 14 / 0.51),
                        Map.entry(REQUEST_THROUGHPUT, 5.0),
                        Map.entry(DURATION, 0.51),
                        Map.entry(SUCCESSFUL, 3.0),
                        Map.entry(FAILED, 2.0),
                        Map.entry(INPUT_TOKENS, 110.0),
                        Map.entry(OUTPUT_TOKENS, 14.0)));
    }
}
