package io.tokenpulse.aggregator.definitions;

import static io.tokenpulse.aggregator.definitions.ScoreRow.*;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * SGLang bench_serving's arithmetic on {@link FixtureRun}, from sgl-project/sglang at 6e48df33
 * (python/sglang/benchmark/metrics.py do_calculate_metrics, python/sglang/benchmark/backends/oai_client.py).
 */
class SglangDefinitionTest {

    @Test
    void everyRowFollowsSglang() {
        FixtureRun.assertScores(
                new SglangDefinition().score(FixtureRun.RUN),
                Map.ofEntries(
                        // lines with text only: TTFT [100, 200, 320]
                        Map.entry(TTFT_MEAN, 620.0 / 3),
                        Map.entry(TTFT_MEDIAN, 200.0),
                        Map.entry(TTFT_P99, 317.6),
                        // pooled gaps between lines with text: [10,20,30] + [5,10] + [10,20,30,20] (C's empty line
                        // skipped)
                        Map.entry(ITL_MEAN, 155.0 / 9),
                        Map.entry(ITL_MEDIAN, 20.0),
                        Map.entry(ITL_P99, 30.0),
                        // latency at [DONE] = the stream's end: [165, 220, 410]; TPOT = (latency - ttft)/(N - 1):
                        // [65/3, 20/2, 90/4]
                        Map.entry(TPOT_MEAN, (65.0 / 3 + 10 + 22.5) / 3),
                        Map.entry(TPOT_MEDIAN, 65.0 / 3),
                        Map.entry(TPOT_P99, 65.0 / 3 + 0.98 * (22.5 - 65.0 / 3)),
                        Map.entry(E2EL_MEAN, 265.0),
                        Map.entry(E2EL_MEDIAN, 220.0),
                        Map.entry(E2EL_P99, 406.2),
                        Map.entry(OUTPUT_THROUGHPUT, 12.0),
                        Map.entry(REQUEST_THROUGHPUT, 3.0),
                        Map.entry(DURATION, 1.0),
                        Map.entry(SUCCESSFUL, 3.0),
                        Map.entry(FAILED, 2.0),
                        Map.entry(INPUT_TOKENS, 60.0),
                        Map.entry(OUTPUT_TOKENS, 12.0)));
    }
}
