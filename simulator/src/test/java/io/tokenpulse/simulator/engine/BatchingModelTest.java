package io.tokenpulse.simulator.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BatchingModelTest {

    /** Output tokens of the checks below that are not a seed point (all --ignore-eos). */
    private static final int OUTPUT_TOKENS = 60;

    record Result(double meanTtftMs, double meanTpotMs, EngineState end) {}

    static Result run(EngineProfile profile, int requests, int promptTokens) {
        return run(profile, requests, promptTokens, OUTPUT_TOKENS);
    }

    /** All requests at t=0 (the load sweep's --request-rate inf), each generating {@code outputTokens}. */
    static Result run(EngineProfile profile, int requests, int promptTokens, int outputTokens) {
        VirtualClock clock = new VirtualClock();
        BatchingModel model = new BatchingModel(profile, clock);
        List<RecordingGeneration> generations = new ArrayList<>();
        for (int i = 0; i < requests; i++) {
            RecordingGeneration generation = new RecordingGeneration(promptTokens, outputTokens, 0);
            generations.add(generation);
            model.generate(generation);
        }
        clock.runUntilIdle();
        assertThat(generations).allSatisfy(g -> assertThat(g.emitted()).isEqualTo(outputTokens));
        return new Result(
                generations.stream()
                        .mapToDouble(RecordingGeneration::ttftMs)
                        .average()
                        .orElseThrow(),
                generations.stream()
                        .mapToDouble(RecordingGeneration::tpotMs)
                        .average()
                        .orElseThrow(),
                model.state(0, 0));
    }

    /**
     * Every point of vLLM's load sweep (testdata/vllm/load-sweep.txt). The output length is the one its run had (its "Total generated
     * tokens" / requests, e.g. ~120 in the 10 000-token series): the sweep's benchmark duration equals
     * TTFT + (that length - 1) x TPOT, and with 60 instead the 2- and 4-prompt TPOT is a different
     * quantity (every gap then falls while the next prompt is being prefilled).
     */
    @ParameterizedTest(name = "{0} x {1} tokens, {2} out: seed TTFT {3} ms, TPOT {4} ms")
    @CsvSource({
        // requests, prompt tokens, output tokens, seed mean TTFT ms, seed mean TPOT ms
        "1, 80, 85, 314.58, 50.19",
        "2, 80, 64, 372.80, 51.59",
        "4, 80, 72, 397.54, 54.18",
        "8, 80, 61, 646.20, 55.48",
        "16, 80, 59, 1034.69, 63.38",
        "32, 80, 58, 1546.00, 87.10",
        "64, 80, 60, 2698.98, 230.16",
        "128, 80, 59, 5161.26, 298.29",
        "256, 80, 60, 11787.27, 389.49",
        "512, 80, 59, 27060.36, 419.23",
        "1024, 80, 59, 58452.87, 435.60",
        "2048, 80, 58, 128150.28, 461.09",
        "1, 10000, 122, 12286.18, 70.72",
        "2, 10000, 120, 18380.39, 115.44",
        "4, 10000, 118, 30569.56, 211.95",
        "8, 10000, 125, 55713.23, 379.62",
        "16, 10000, 120, 105158.97, 512.55",
        "32, 10000, 115, 202961.69, 563.16",
        "64, 10000, 113, 399467.18, 588.74",
        "1, 16000, 138, 23828.07, 73.06",
        "1, 32000, 92, 66549.57, 74.89",
        "1, 64000, 150, 209674.58, 79.79",
        "1, 128000, 150, 734188.96, 98.17",
    })
    void defaultProfileReproducesSeed001Within15Percent(
            int requests, int promptTokens, int outputTokens, double seedTtftMs, double seedTpotMs) {
        Result result = run(EngineProfile.DEFAULT, requests, promptTokens, outputTokens);

        // the sweep's batches fit the KV cache: the calibrated path never preempts
        assertThat(result.end().preemptions()).isZero();
        assertThat(result.end().prefixCacheHits()).isZero();
        // 15 % on the engine's own clock leaves room for what HTTP and the client add end to end (target 25 %)
        assertThat(result.meanTtftMs()).as("mean TTFT ms").isCloseTo(seedTtftMs, within(seedTtftMs * 0.15));
        assertThat(result.meanTpotMs()).as("mean TPOT ms").isCloseTo(seedTpotMs, within(seedTpotMs * 0.15));
    }

    @ParameterizedTest(name = "{0} decoding sequences: {1} ms")
    @CsvSource({
        // base 10 ms + 1 ms per sequence + 100 ms ramped in from 32 to 64 sequences
        "0, 10",
        "16, 26",
        "32, 42",
        "48, 108",
        "64, 174",
        "128, 238",
    })
    void largeBatchCostRampsInBetweenItsBounds(int decodeSeqs, double stepMs) {
        EngineProfile profile =
                new EngineProfile(256, 512, true, 131_072, 131_072, true, 0, 10, 0, 0, 1, 1, 100, 32, 64, 0, 0, 0);

        assertThat(profile.stepNs(0, 0, decodeSeqs, 0) / 1e6).isCloseTo(stepMs, within(1e-6));
    }

    @Test
    void decodeThroughputFallsFrom32To64SequencesAsInVllmsSweep() {
        // vLLM's sweep: 219 output tok/s at 32 requests, 196 at 64 (a smooth decode cost cannot give that)
        Result at32 = run(EngineProfile.DEFAULT, 32, 80);
        Result at64 = run(EngineProfile.DEFAULT, 64, 80);

        assertThat(64 / at64.meanTpotMs()).isLessThan(32 / at32.meanTpotMs());
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

    @Test
    void aSessionsGrowingPromptsReportTheirCachedPrefixAsTheTurnsGo() {
        VirtualClock clock = new VirtualClock();
        BatchingModel model = new BatchingModel(EngineProfile.DEFAULT, clock);
        // a session's turns: each prompt is the previous one, its answer and a new user message
        int[] turn0 = IntStream.range(0, 100).toArray();
        int[] turn1 = IntStream.range(0, 250).toArray();
        int[] turn2 = IntStream.range(0, 420).toArray();
        int[] stranger = IntStream.range(1000, 1420).toArray();
        RecordingGeneration first = new RecordingGeneration(turn0, 2, 0);
        RecordingGeneration second = new RecordingGeneration(turn1, 2, 5_000_000_000L);
        RecordingGeneration third = new RecordingGeneration(turn2, 2, 10_000_000_000L);
        RecordingGeneration other = new RecordingGeneration(stranger, 2, 15_000_000_000L);
        for (RecordingGeneration g : List.of(first, second, third, other)) {
            model.generate(g);
        }

        clock.runUntilIdle();

        // full 16-token blocks of the longest prefix seen before: 100 -> 96, 250 -> 240
        assertThat(first.cachedTokens()).isZero();
        assertThat(second.cachedTokens()).isEqualTo(96);
        assertThat(third.cachedTokens()).isEqualTo(240);
        assertThat(other.cachedTokens()).as("no shared prefix").isZero();
        // the cached part's prefill is skipped: the third turn starts faster than a stranger of its length
        assertThat(third.ttftMs()).isLessThan(other.ttftMs());
    }

    @Test
    void aPromptWhoseLeadingBlocksAreCachedSkipsTheirPrefill() {
        VirtualClock clock = new VirtualClock();
        BatchingModel model = new BatchingModel(EngineProfile.DEFAULT, clock);
        int[] prompt = IntStream.range(0, 2000).toArray();
        int[] otherStart = prompt.clone();
        otherStart[0] = -7;
        RecordingGeneration first = new RecordingGeneration(prompt, 2, 0);
        RecordingGeneration again = new RecordingGeneration(prompt, 2, 10_000_000_000L);
        RecordingGeneration changedStart = new RecordingGeneration(otherStart, 2, 20_000_000_000L);
        model.generate(first);
        model.generate(again);
        model.generate(changedStart);

        clock.runUntilIdle();

        // 1984 of 2000 tokens (124 blocks; the last token is always computed) hit: one small step
        // instead of four 512-token ones
        assertThat(again.ttftMs()).isLessThan(first.ttftMs() / 2);
        // one changed token in the first block: no later block matches either
        assertThat(changedStart.ttftMs()).isCloseTo(first.ttftMs(), within(first.ttftMs() * 0.01));
        EngineState end = model.state(0, 0);
        assertThat(end.prefixCacheQueries()).isEqualTo(3 * 2000);
        assertThat(end.prefixCacheHits()).isEqualTo(1984);
        assertThat(end.kvCacheUsage()).isZero();
    }

    @Test
    void runningRequestsBeyondTheKvCacheArePreemptedNewestFirstAndRecomputed() {
        VirtualClock clock = new VirtualClock();
        // 16 blocks of 16 tokens; each request grows to 100 + 100 tokens (13 blocks)
        BatchingModel model =
                new BatchingModel(EngineProfile.DEFAULT.withMaxModelLen(256).withKvCacheTokens(256), clock);
        List<RecordingGeneration> generations = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            RecordingGeneration generation = new RecordingGeneration(100, 100, i);
            generations.add(generation);
            model.generate(generation);
        }

        clock.runUntilIdle();

        // every request still gets all its tokens, once each
        assertThat(generations).allSatisfy(g -> assertThat(g.emitted()).isEqualTo(100));
        EngineState end = model.state(0, 0);
        assertThat(end.preemptions()).isPositive();
        // a preempted request queries its prompt and the tokens it sent again
        assertThat(end.prefixCacheQueries()).isGreaterThan(3 * 100);
        assertThat(end.kvCacheUsage()).isZero();
        // the oldest is never the one preempted: it finishes first, at the pace of an uncontended batch
        assertThat(generations.get(0).tpotMs()).isLessThan(generations.get(2).tpotMs());
        assertThat(generations.get(0).lastNs()).isLessThan(generations.get(1).lastNs());
    }

    /** CPU time of this thread while a CPU engine runs {@code requests} one-token prompts, 5 tokens out each. */
    private static long cpuNsOfRun(EngineProfile profile, int requests) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        VirtualClock clock = new VirtualClock();
        BatchingModel model = new BatchingModel(profile, clock);
        for (int i = 0; i < requests; i++) {
            model.generate(new RecordingGeneration(1, 5, 0));
        }
        long before = threads.getCurrentThreadCpuTime();
        clock.runUntilIdle(); // the virtual clock runs the engine's steps on this thread
        return threads.getCurrentThreadCpuTime() - before;
    }

    @Test
    void aCpuEngineComputesOnItsThreadInProportionToTheTokensOfEachStep() {
        // 1 ms per token; a request computes its 1-token prompt, then 4 decode tokens
        EngineProfile cpu = EngineProfile.CPU.withCpuUsPerToken(1000);

        long alone = cpuNsOfRun(cpu, 1);
        long four = cpuNsOfRun(cpu, 4);

        assertThat(alone).as("CPU ns of 5 steps of 1 token").isBetween(5_000_000L, 9_000_000L);
        assertThat(four).as("CPU ns of 5 steps of 4 tokens").isGreaterThanOrEqualTo(20_000_000L);
        assertThat(four).isGreaterThan(alone * 2);
    }

    @Test
    void aCpuEngineStepLastsAsLongAsItsComputation() throws InterruptedException {
        // the real engine thread, 2 ms per token: 4 requests in one batch make every step >= 8 ms of CPU
        BatchingModel model = new BatchingModel(EngineProfile.CPU.withCpuUsPerToken(2000));
        List<RecordingGeneration> generations = new ArrayList<>();
        try {
            for (int i = 0; i < 4; i++) {
                RecordingGeneration generation = new RecordingGeneration(1, 5, System.nanoTime());
                generations.add(generation);
                model.generate(generation);
            }
            for (RecordingGeneration generation : generations) {
                assertThat(generation.awaitLastToken(Duration.ofSeconds(10))).isTrue();
            }
        } finally {
            model.close();
        }

        // no modelled time at all: every gap is a step, which lasts at least the CPU it computed. The four
        // requests may join over the first steps and leave over the last ones, so a step holds 1 to 4 of
        // them (>= 2 ms); each request shares at least one step with all four (>= 8 ms).
        assertThat(generations).allSatisfy(g -> {
            assertThat(g.gapRangeMs()[0]).as("shortest gap").isGreaterThanOrEqualTo(2);
            assertThat(g.gapRangeMs()[1]).as("longest gap").isGreaterThanOrEqualTo(8);
        });
    }
}
