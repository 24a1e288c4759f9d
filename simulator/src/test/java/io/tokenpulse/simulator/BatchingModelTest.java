package io.tokenpulse.simulator;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class BatchingModelTest {

    /** The seed's runs: all requests at t=0 (--request-rate inf), 60 output tokens each (--ignore-eos). */
    private static final int OUTPUT_TOKENS = 60;

    record Result(double meanTtftMs, double meanTpotMs) {
    }

    static Result run(EngineProfile profile, int requests, int promptTokens) {
        VirtualClock clock = new VirtualClock();
        BatchingModel model = new BatchingModel(profile, clock);
        List<RecordingGeneration> generations = new ArrayList<>();
        for (int i = 0; i < requests; i++) {
            RecordingGeneration generation = new RecordingGeneration(promptTokens, OUTPUT_TOKENS, 0);
            generations.add(generation);
            model.generate(generation);
        }
        clock.runUntilIdle();
        assertThat(generations).allSatisfy(g -> assertThat(g.emitted()).isEqualTo(OUTPUT_TOKENS));
        return new Result(generations.stream().mapToDouble(RecordingGeneration::ttftMs).average().orElseThrow(),
                generations.stream().mapToDouble(RecordingGeneration::tpotMs).average().orElseThrow());
    }

    @ParameterizedTest(name = "{0} x {1} tokens: seed TTFT {2} ms, TPOT {3} ms")
    @CsvSource({
            // requests, prompt tokens, seed mean TTFT ms, seed mean TPOT ms, allowed relative error TTFT, TPOT
            "1, 80, 314.58, 50.19, 0.25, 0.25",
            "2, 80, 372.80, 51.59, 0.25, 0.25",
            "4, 80, 397.54, 54.18, 0.25, 0.25",
            "8, 80, 646.20, 55.48, 0.25, 0.25",
            "16, 80, 1034.69, 63.38, 0.25, 0.25",
            "32, 80, 1546.00, 87.10, 0.25, 0.25",
            // the seed's TPOT jumps 2.6x from 32 to 64 requests, then grows slowly: no smooth cost fits both sides
            "64, 80, 2698.98, 230.16, 0.25, 0.35",
            "128, 80, 5161.26, 298.29, 0.25, 0.25",
            "256, 80, 11787.27, 389.49, 0.25, 0.25",
            "512, 80, 27060.36, 419.23, 0.25, 0.25",
            "1024, 80, 58452.87, 435.60, 0.25, 0.25",
            "2048, 80, 128150.28, 461.09, 0.25, 0.25",
            "1, 10000, 12286.18, 70.72, 0.25, 0.25",
            // with 2 and 4 long prompts the seed's decodes mostly ran without a prefill chunk beside them
            // (median ITL 68 ms); here every step carries one, so early requests decode slower
            "2, 10000, 18380.39, 115.44, 0.25, 0.30",
            "4, 10000, 30569.56, 211.95, 0.25, 0.50",
            "8, 10000, 55713.23, 379.62, 0.25, 0.25",
            "16, 10000, 105158.97, 512.55, 0.25, 0.25",
            "32, 10000, 202961.69, 563.16, 0.25, 0.25",
            "64, 10000, 399467.18, 588.74, 0.25, 0.25",
            "1, 16000, 23828.07, 73.06, 0.25, 0.25",
            "1, 32000, 66549.57, 74.89, 0.25, 0.25",
            "1, 64000, 209674.58, 79.79, 0.25, 0.25",
            "1, 128000, 734188.96, 98.17, 0.25, 0.25",
    })
    void defaultProfileReproducesSeed001(int requests, int promptTokens, double seedTtftMs, double seedTpotMs,
                                         double ttftTolerance, double tpotTolerance) {
        Result result = run(EngineProfile.DEFAULT, requests, promptTokens);

        assertThat(result.meanTtftMs()).as("mean TTFT ms").isCloseTo(seedTtftMs, within(seedTtftMs * ttftTolerance));
        assertThat(result.meanTpotMs()).as("mean TPOT ms").isCloseTo(seedTpotMs, within(seedTpotMs * tpotTolerance));
    }

    @Test
    void ttftRisesWithQueueing() {
        double previous = 0;
        for (int requests : new int[] {1, 16, 256, 2048}) {
            double ttftMs = run(EngineProfile.DEFAULT, requests, 80).meanTtftMs();
            assertThat(ttftMs).as("mean TTFT at %d requests", requests).isGreaterThan(previous * 1.3);
            previous = ttftMs;
        }
    }

    @Test
    void ttftRisesWithPromptLength() {
        assertThat(run(EngineProfile.DEFAULT, 1, 4000).meanTtftMs())
                .isGreaterThan(run(EngineProfile.DEFAULT, 1, 1000).meanTtftMs() * 3);
    }

    @Test
    void tpotRisesWithBatchSize() {
        double previous = 0;
        for (int requests : new int[] {1, 32, 128, 512}) {
            double tpotMs = run(EngineProfile.DEFAULT, requests, 80).meanTpotMs();
            assertThat(tpotMs).as("mean TPOT at %d requests", requests).isGreaterThan(previous * 1.1);
            previous = tpotMs;
        }
    }

    @Test
    void batchCapMakesRequestsQueue() {
        EngineProfile capped = EngineProfile.DEFAULT.withMaxNumSeqs(4);

        Result four = run(capped, 4, 80);
        Result eight = run(capped, 8, 80);

        // the second four wait for the first four to finish all 60 tokens
        assertThat(eight.meanTtftMs()).isGreaterThan(four.meanTtftMs() + 59 * four.meanTpotMs() / 2);
    }

    @Test
    void withoutChunkedPrefillALongPromptStallsRunningDecodes() {
        VirtualClock clock = new VirtualClock();
        BatchingModel model = new BatchingModel(EngineProfile.DEFAULT.withChunkedPrefill(false), clock);
        RecordingGeneration shortOne = new RecordingGeneration(80, OUTPUT_TOKENS, 0);
        RecordingGeneration longOne = new RecordingGeneration(20_000, 2, 1_000_000_000L);
        model.generate(shortOne);
        model.generate(longOne);

        clock.runUntilIdle();

        // the 20k prompt is one step of tens of seconds: one gap of the short request holds all of it
        assertThat(shortOne.tpotMs() * (OUTPUT_TOKENS - 1)).isGreaterThan(longOne.ttftMs() * 0.9);
    }

    @Test
    void speedupDividesSimulatedTimes() {
        Result normal = run(EngineProfile.DEFAULT, 16, 80);
        Result fast = run(EngineProfile.DEFAULT.speedUp(10), 16, 80);

        assertThat(fast.meanTtftMs()).isCloseTo(normal.meanTtftMs() / 10, within(0.01));
        assertThat(fast.meanTpotMs()).isCloseTo(normal.meanTpotMs() / 10, within(0.01));
    }
}
