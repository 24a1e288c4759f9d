package io.tokenpulse.aggregator.scoring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tokenpulse.aggregator.metrics.GoodputSlo;
import io.tokenpulse.aggregator.metrics.MetricPercentiles;
import io.tokenpulse.aggregator.metrics.PercentileMetrics;
import io.tokenpulse.aggregator.metrics.RunResult;
import io.tokenpulse.schemas.avro.MetricSummary;
import io.tokenpulse.schemas.avro.RequestMetrics;
import io.tokenpulse.schemas.avro.RunEvent;
import io.tokenpulse.schemas.avro.RunFinished;
import io.tokenpulse.schemas.avro.RunStarted;
import io.tokenpulse.schemas.avro.RunSummary;
import io.tokenpulse.schemas.avro.ShardClock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The run of {@code AggregatorTopologyTest.runSummaryHasEveryFieldWorkedOutByHand}, given as the
 * resolved request-metrics records the topology stores: scoring them must give the same numbers.
 */
class RunScoringTest {
    private static final String RUN = "r1";
    private static final long ANCHOR_NS = 1_700_000_000_000_000_000L;
    private static final long MS = 1_000_000L;
    private static final double SECONDS = 3.05; // schedule start to the failure's end at 3050 ms

    /** scheduled 900 ms, sent 1000 ms, events at +100, +150, +250 ms, n = 3, prompt 10. */
    private static final RequestMetrics REQUEST_0 =
            request(0, true, "", 10, 3, 100L, 250L, 75.0 * MS, 250.0 / 3 * MS, 100, List.of(50L, 100L), 1000, 1250);
    /** sent 2000 ms, one event at +200 ms, n = 1, prompt 20. */
    private static final RequestMetrics REQUEST_1 =
            request(1, true, "", 20, 1, 200L, 200L, null, 200.0 * MS, 0, List.of(), 2000, 2200);
    /** HTTP 500 after 50 ms, prompt 30. */
    private static final RequestMetrics REQUEST_2 =
            request(2, false, "HTTP 500", 30, 0, null, null, null, null, 0, List.of(), 3000, 3050);

    private static final List<RequestMetrics> REQUESTS = List.of(REQUEST_2, REQUEST_0, REQUEST_1);

    static Stream<Arguments> summaryFields() {
        return Stream.of(
                row("duration ns", RunSummary::getDurationNs, 3050.0 * MS),
                row("num prompts", RunSummary::getNumPrompts, 3),
                row("completed", RunSummary::getCompleted, 2),
                row("failed", RunSummary::getFailed, 1),
                row("total input tokens (the failure's 30 not counted)", RunSummary::getTotalInputTokens, 30),
                row("total output tokens", RunSummary::getTotalOutputTokens, 4),
                row("request throughput", RunSummary::getRequestThroughput, 2 / SECONDS),
                row("output throughput", RunSummary::getOutputThroughput, 4 / SECONDS),
                row("total token throughput", RunSummary::getTotalTokenThroughput, 34 / SECONDS),
                row("goodput: ttft:150 met by request 0 only", RunSummary::getRequestGoodput, 1 / SECONDS),
                row(
                        "peak output tokens/s: request 0's three events in second 0",
                        RunSummary::getMaxOutputTokensPerS,
                        3),
                row("peak concurrency", RunSummary::getMaxConcurrentRequests, 1),
                row("shards", RunSummary::getShards, 1),
                row("records not delivered", RunSummary::getRecordsNotDelivered, 2),
                row("mean ttft [100, 200]", s -> metric(s, "ttft").getMeanMs(), 150),
                row("std ttft", s -> metric(s, "ttft").getStdMs(), 50),
                row("p99 ttft", s -> p(s, "ttft", 1), 199),
                row(
                        "mean tpot [75]: request 1 has n = 1",
                        s -> metric(s, "tpot").getMeanMs(),
                        75),
                row("count tpot", s -> metric(s, "tpot").getCount(), 1),
                row("mean itl [50, 100]", s -> metric(s, "itl").getMeanMs(), 75),
                row("p99 itl", s -> p(s, "itl", 1), 99.5),
                row("median e2el [250, 200]", s -> metric(s, "e2el").getMedianMs(), 225),
                row("p99 e2el", s -> p(s, "e2el", 1), 249.5));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("summaryFields")
    void summaryOfStoredRequestsHasTheTopologysHandWorkedNumbers(
            String field, Function<RunSummary, Number> value, double expected) {
        RunSummary s = RunScoring.summarize(
                RUN, shards(), REQUESTS::stream, RunScoring.Options.storedIn(RUN, shards().config()));
        assertThat(value.apply(s).doubleValue()).as(field).isCloseTo(expected, within(1e-9));
    }

    @Test
    void probesAreScoredApartAndLeaveEveryRunFigureAsItWas() {
        RequestMetrics probe = RequestMetrics.newBuilder(REQUEST_1)
                .setRequestIndex(1_000_000_000)
                .setProbe(true)
                .build();
        RunShards four =
                RunShards.ifComplete(List.of(started(0, 1), finished(0, 1, 4))).orElseThrow();
        List<RequestMetrics> withProbe =
                Stream.concat(REQUESTS.stream(), Stream.of(probe)).toList();
        RunSummary s =
                RunScoring.summarize(RUN, four, withProbe::stream, RunScoring.Options.storedIn(RUN, four.config()));
        RunSummary without = RunScoring.summarize(
                RUN, shards(), REQUESTS::stream, RunScoring.Options.storedIn(RUN, shards().config()));
        assertThat(s.getNumPrompts()).as("the probe is no prompt of the run").isEqualTo(3);
        assertThat(s.getCompleted()).isEqualTo(2);
        assertThat(s.getTotalInputTokens()).isEqualTo(30);
        assertThat(s.getMetrics()).isEqualTo(without.getMetrics());
        assertThat(s.getDurationNs()).isEqualTo(without.getDurationNs());
        assertThat(without.getProbes()).isNull();
        assertThat(s.getProbes().getCompleted()).isEqualTo(1);
        assertThat(s.getProbes().getFailed()).isZero();
        assertThat(s.getProbes().getMetrics().get(0).getMetric()).isEqualTo("ttft");
        assertThat(s.getProbes().getMetrics().get(0).getMeanMs()).isCloseTo(200, within(1e-9));
        assertThat(s.getProbes().getMetrics().get(1).getMetric()).isEqualTo("e2el");
    }

    @Test
    void steadyStateAndPrefixCacheComeFromTheStoredRequests() {
        // request 0 (1000..1250 ms) and request 1 (2000..2200 ms) never overlap: peak 1, band [1, 1],
        // from request 0's send to request 1's end; request 0 reported 4 of its 10 prompt tokens cached
        List<RequestMetrics> cached = List.of(
                REQUEST_2,
                RequestMetrics.newBuilder(REQUEST_0).setCachedTokens(4).build(),
                REQUEST_1);
        RunSummary s = RunScoring.summarize(
                RUN, shards(), cached::stream, RunScoring.Options.storedIn(RUN, shards().config()));
        assertThat(s.getSteadyState().getStartS()).isCloseTo(1.0, within(1e-9));
        assertThat(s.getSteadyState().getEndS()).isCloseTo(2.2, within(1e-9));
        assertThat(s.getSteadyState().getPlateauInFlight()).isEqualTo(1);
        assertThat(s.getSteadyState().getCompleted()).isEqualTo(2);
        assertThat(s.getSteadyState().getRequestThroughput()).isCloseTo(2 / 1.2, within(1e-9));
        assertThat(s.getSteadyState().getOutputThroughput()).isCloseTo(4 / 1.2, within(1e-9));
        assertThat(s.getSteadyStateAbsent()).isNull();
        assertThat(s.getPrefixCache().getRequests()).isEqualTo(1);
        assertThat(s.getPrefixCache().getCachedTokens()).isEqualTo(4);
        assertThat(s.getPrefixCache().getHitRate()).isCloseTo(0.4, within(1e-12));
        RunSummary none = RunScoring.summarize(
                RUN, shards(), REQUESTS::stream, RunScoring.Options.storedIn(RUN, shards().config()));
        assertThat(none.getPrefixCache()).as("no server reported cached_tokens").isNull();
    }

    @Test
    void aLoraRunGetsEachModelScoredByTheSameMathAsTheRun() {
        // request 0 named adapter a; requests 1 and 2 (the failure) adapter b
        List<RequestMetrics> named = List.of(
                RequestMetrics.newBuilder(REQUEST_0).setModel("a").build(),
                RequestMetrics.newBuilder(REQUEST_1).setModel("b").build(),
                RequestMetrics.newBuilder(REQUEST_2).setModel("b").build());
        RunEvent loraStart = started(0, 1);
        ((RunStarted) loraStart.getEvent()).setLoraModules(List.of("a", "b"));
        RunShards lora =
                RunShards.ifComplete(List.of(loraStart, finished(0, 1, 3))).orElseThrow();

        RunSummary s = RunScoring.summarize(RUN, lora, named::stream, RunScoring.Options.storedIn(RUN, lora.config()));

        assertThat(s.getPerModel()).extracting(m -> m.getModel()).containsExactly("a", "b");
        var a = s.getPerModel().get(0);
        var b = s.getPerModel().get(1);
        assertThat(a.getCompleted()).isEqualTo(1);
        assertThat(a.getFailed()).isZero();
        assertThat(b.getCompleted()).isEqualTo(1);
        assertThat(b.getFailed()).isEqualTo(1);
        assertThat(a.getMetrics()).extracting(MetricSummary::getMetric).containsExactly("ttft", "tpot", "itl");
        // a: TTFT 100, TPOT 75, ITL [50, 100]; b: TTFT 200, no TPOT (n = 1), no ITL
        assertThat(a.getMetrics().get(0).getMeanMs()).isCloseTo(100, within(1e-9));
        assertThat(a.getMetrics().get(1).getMeanMs()).isCloseTo(75, within(1e-9));
        assertThat(a.getMetrics().get(2).getPercentiles().get(0).getValueMs()).isCloseTo(99.5, within(1e-9));
        assertThat(b.getMetrics().get(0).getPercentiles().get(0).getPercentile())
                .isEqualTo(99.0);
        assertThat(b.getMetrics().get(0).getMeanMs()).isCloseTo(200, within(1e-9));
        assertThat(b.getMetrics().get(1).getCount()).isZero();
        // the run's own numbers are untouched by the split
        assertThat(metric(s, "ttft").getMeanMs()).isCloseTo(150, within(1e-9));
    }

    @Test
    void aReasoningRunGetsItsTokenSplitAndTimeToFirstOutputTokenFromItsSuccessfulRequests() {
        // request 0 thought (2 events, 2 of its 3 tokens) and answered at +250 ms; request 1 answered
        // at once (+200 ms, no thinking); the failure's thinking and answer count for nothing
        List<RequestMetrics> reasoning = List.of(
                RequestMetrics.newBuilder(REQUEST_0)
                        .setTtfoNs(250 * MS)
                        .setReasoningEvents(2)
                        .setReasoningTokens(2)
                        .build(),
                RequestMetrics.newBuilder(REQUEST_1).setTtfoNs(200 * MS).build(),
                RequestMetrics.newBuilder(REQUEST_2)
                        .setTtfoNs(10 * MS)
                        .setReasoningEvents(5)
                        .setReasoningTokens(5)
                        .build());

        RunSummary s = RunScoring.summarize(
                RUN, shards(), reasoning::stream, RunScoring.Options.storedIn(RUN, shards().config()));

        var r = s.getReasoning();
        assertThat(r.getRequests()).isEqualTo(1);
        assertThat(r.getReasoningTokens()).isEqualTo(2);
        assertThat(r.getAnswerTokens())
                .as("4 output tokens, 2 of them thinking")
                .isEqualTo(2);
        assertThat(r.getTtfo().getMetric()).isEqualTo("ttfo");
        assertThat(r.getTtfo().getCount()).isEqualTo(2);
        assertThat(r.getTtfo().getMeanMs()).isCloseTo(225, within(1e-9));
        assertThat(r.getTtfo().getPercentiles())
                .extracting(v -> v.getPercentile())
                .as("the run's --metric-percentiles")
                .containsExactly(50.0, 99.0);
        assertThat(r.getTtfo().getPercentiles().get(1).getValueMs()).isCloseTo(249.5, within(1e-9));
        // TTFT stays vLLM's, whatever the thinking
        assertThat(metric(s, "ttft").getMeanMs()).isCloseTo(150, within(1e-9));
    }

    @Test
    void aRunWhereNoRequestThoughtHasNoReasoningSummaryEvenWithAnswerTimes() {
        List<RequestMetrics> answered = List.of(
                RequestMetrics.newBuilder(REQUEST_0)
                        .setTtfoNs(100 * MS)
                        .setReasoningTokens(0)
                        .build(),
                REQUEST_1,
                REQUEST_2);
        RunSummary s = RunScoring.summarize(
                RUN, shards(), answered::stream, RunScoring.Options.storedIn(RUN, shards().config()));
        assertThat(s.getReasoning())
                .as("OpenAI reports reasoning_tokens 0 for other models")
                .isNull();
    }

    @Test
    void aRunWithoutAdaptersHasNoPerModelSection() {
        RunSummary s = RunScoring.summarize(
                RUN, shards(), REQUESTS::stream, RunScoring.Options.storedIn(RUN, shards().config()));
        assertThat(s.getPerModel()).isEmpty();
    }

    @Test
    void summaryCarriesTheRunsIdentityFailuresAndSelection() {
        RunSummary s = RunScoring.summarize(
                RUN, shards(), REQUESTS::stream, RunScoring.Options.storedIn(RUN, shards().config()));
        assertThat(s.getRunId()).isEqualTo(RUN);
        assertThat(s.getBackend()).isEqualTo("vllm");
        assertThat(s.getDate()).matches("\\d{8}-\\d{6}");
        assertThat(s.getErrors()).isEqualTo(Map.of("HTTP 500", 1L));
        assertThat(s.getItlExact()).isTrue();
        assertThat(s.getMetrics()).extracting(MetricSummary::getMetric).containsExactly("ttft", "tpot", "itl", "e2el");
    }

    @Test
    void theParsedOptionsRunStartedCarriesAreWhatScoringUsesAndAnOlderRecordsStringsAreParsed() {
        RunStarted older = (RunStarted) started(0, 1).getEvent();
        assertThat(RunScoring.Options.storedIn(RUN, older))
                .isEqualTo(new RunScoring.Options(
                        PercentileMetrics.parse("ttft,tpot,itl,e2el"),
                        MetricPercentiles.parse("50,99"),
                        GoodputSlo.parse(List.of("ttft:150"))));

        RunStarted typed = RunStarted.newBuilder(older)
                .setSelectedMetrics(List.of("itl", "e2el"))
                .setSelectedPercentiles(List.of(90.0))
                .setGoodputSloMs(Map.of("tpot", 20.0))
                .build();
        assertThat(RunScoring.Options.storedIn(RUN, typed))
                .isEqualTo(new RunScoring.Options(
                        PercentileMetrics.parse("itl,e2el"),
                        MetricPercentiles.parse("90"),
                        GoodputSlo.parse(List.of("tpot:20"))));
    }

    @Test
    void failuresOfOneCauseCountOnOneLineWhateverTheirByteCounts() {
        RequestMetrics reset672 = request(
                3,
                false,
                "connection to 127.0.0.1:41234 failed after 672 body bytes: " + "Connection reset by peer",
                30,
                0,
                null,
                null,
                null,
                null,
                0,
                List.of(),
                3000,
                3050);
        RequestMetrics reset675 = request(
                4,
                false,
                "connection to 127.0.0.1:41234 failed after 675 body bytes: " + "Connection reset by peer",
                30,
                0,
                null,
                null,
                null,
                null,
                0,
                List.of(),
                3000,
                3050);
        RunScoring.Scored scored = RunScoring.score(
                List.of(REQUEST_2, reset672, reset675)::stream,
                ANCHOR_NS,
                ANCHOR_NS + 3050 * MS,
                RunScoring.Options.storedIn(RUN, shards().config()));

        assertThat(scored.errors())
                .containsExactly(
                        Map.entry("HTTP 500", 1L),
                        Map.entry("connection to HOST:PORT failed after N body bytes: Connection reset by peer", 2L));
    }

    @ParameterizedTest(name = "--goodput {0} -> {1} good of 2")
    @CsvSource({
        "ttft:250,  2", // ttft 100 and 200
        "ttft:199,  1",
        "e2el:220,  1", // e2el 250 misses, 200 meets
        "tpot:50,   1", // request 0's tpot 75 misses; request 1 (n = 1) counts as tpot 0
        "'ttft:250 e2el:249', 1",
        "ttft:0,    0"
    })
    void rescoringWithAnotherGoodputCountsTheRequestsMeetingIt(String goodput, int good) {
        RunScoring.Scored scored = RunScoring.score(
                REQUESTS::stream,
                ANCHOR_NS,
                ANCHOR_NS + 3050 * MS,
                new RunScoring.Options(
                        PercentileMetrics.DEFAULT, MetricPercentiles.DEFAULT, GoodputSlo.parse(List.of(goodput))));
        assertThat(scored.result().requestGoodput().getAsDouble()).isCloseTo(good / SECONDS, within(1e-9));
    }

    @Test
    void rescoringWithOtherPercentilesAndMetricsChangesOnlyTheStatistics() {
        RunScoring.Scored scored = RunScoring.score(
                REQUESTS::stream,
                ANCHOR_NS,
                ANCHOR_NS + 3050 * MS,
                new RunScoring.Options(
                        PercentileMetrics.parse("e2el,ttft"), MetricPercentiles.parse("90"), GoodputSlo.NONE));
        var result = scored.result();
        assertThat(result.requestGoodput()).isEmpty();
        assertThat(result.completed()).isEqualTo(2);
        assertThat(result.metrics()).extracting(m -> m.metric().key()).containsExactly("ttft", "e2el");
        // e2el [200, 250]: P90 = 200 + 0.9 * 50; ttft [100, 200]: P90 = 100 + 0.9 * 100
        assertThat(result.metrics().get(1).percentiles().get(0).valueMs()).isCloseTo(245, within(1e-9));
        assertThat(result.metrics().get(0).percentiles().get(0).valueMs()).isCloseTo(190, within(1e-9));
        assertThat(scored.errors()).isEqualTo(Map.of("HTTP 500", 1L));
    }

    @Test
    void aMultiTurnRunIsScoredByTurnIndexToo() {
        // two sessions of two turns; the second turns carry the history (longer prompts) and one failed
        List<RequestMetrics> turns = List.of(
                turn(request(0, true, "", 100, 10, 100L, 200L, 11e6, 20e6, 0, List.of(), 0, 200), "s-0", 0),
                turn(request(1, true, "", 300, 10, 50L, 150L, 11e6, 15e6, 0, List.of(), 500, 650), "s-0", 1),
                turn(request(2, true, "", 120, 10, 300L, 400L, 11e6, 40e6, 0, List.of(), 0, 400), "s-1", 0),
                turn(request(3, false, "HTTP 500", 0, 0, null, null, null, null, 0, List.of(), 700, 710), "s-1", 1),
                REQUEST_2);
        RunScoring.Scored scored = RunScoring.score(
                turns::stream, ANCHOR_NS, ANCHOR_NS + 3050 * MS, RunScoring.Options.storedIn(RUN, shards().config()));

        assertThat(scored.perTurn()).containsOnlyKeys(0, 1);
        RunResult first = scored.perTurn().get(0);
        assertThat(first.completed()).isEqualTo(2);
        assertThat(first.totalInputTokens()).isEqualTo(220);
        assertThat(first.metrics()).extracting(m -> m.metric().key()).containsExactly("ttft");
        assertThat(first.metrics().get(0).meanMs()).isCloseTo(200, within(1e-9)); // (100 + 300) / 2
        // P99 of [100, 300]: 100 + 0.99 * 200
        assertThat(first.metrics().get(0).percentiles().get(0).valueMs()).isCloseTo(298, within(1e-9));
        RunResult second = scored.perTurn().get(1);
        assertThat(second.completed()).isEqualTo(1);
        assertThat(second.failed()).isEqualTo(1);
        assertThat(second.metrics().get(0).meanMs()).isCloseTo(50, within(1e-9));
        // the run's own figures count every request, turns or not
        assertThat(scored.result().completed()).isEqualTo(3);
        assertThat(RunScoring.score(
                                REQUESTS::stream,
                                ANCHOR_NS,
                                ANCHOR_NS + 3050 * MS,
                                RunScoring.Options.storedIn(RUN, shards().config()))
                        .perTurn())
                .as("a run without sessions has no per-turn figures")
                .isEmpty();
    }

    private static RequestMetrics turn(RequestMetrics request, String sessionId, int turnIndex) {
        request.setSessionId(sessionId);
        request.setTurnIndex(turnIndex);
        return request;
    }

    @Test
    void runWithoutRequestsLastsUntilItsLastShardFinished() {
        RunScoring.Scored scored = RunScoring.score(
                Stream::empty, ANCHOR_NS, ANCHOR_NS + 2000 * MS, RunScoring.Options.storedIn(RUN, shards().config()));
        assertThat(scored.result().durationNs()).isEqualTo(2000 * MS);
        assertThat(scored.result().requestThroughput()).isZero();
    }

    @Test
    void everyStreamOpenedIsClosedSoAStoreScanIsReleased() {
        AtomicInteger opened = new AtomicInteger();
        AtomicInteger closed = new AtomicInteger();
        RunScoring.score(
                () -> {
                    opened.incrementAndGet();
                    return REQUESTS.stream().onClose(closed::incrementAndGet);
                },
                ANCHOR_NS,
                ANCHOR_NS,
                RunScoring.Options.storedIn(RUN, shards().config()));
        assertThat(opened.get()).isPositive();
        assertThat(closed.get()).isEqualTo(opened.get());
    }

    @Test
    void missingShardRecordsAreNamed() {
        List<RunEvent> events = List.of(started(0, 2), finished(0, 2, 1), started(1, 2));
        assertThat(RunShards.ifComplete(events)).isEmpty();
        assertThat(RunShards.missing(events)).contains("RunFinished of shard 1 of 2");
        assertThat(RunShards.missing(List.of())).contains("every RunStarted and RunFinished");
        assertThat(RunShards.missing(List.of(started(0, 1), finished(0, 1, 3)))).isEmpty();
    }

    @Test
    void aShardThatNeverFinishedIsNamedInTheSummaryScoredFromWhatArrived() {
        RunEvent zero = started(0, 2);
        RunEvent one = started(1, 2);
        ((RunStarted) zero.getEvent()).setClockOffsetMs(0.5);
        ((RunStarted) zero.getEvent()).setClockOffsetUncertaintyMs(1.5);
        ((RunStarted) one.getEvent()).setClockOffsetMs(-12.0);
        ((RunStarted) one.getEvent()).setClockOffsetUncertaintyMs(2.0);
        RunShards stored =
                RunShards.asStored(List.of(zero, finished(0, 2, 2), one)).orElseThrow();

        assertThat(stored.missingShards()).containsExactly(1);
        RunSummary summary = RunScoring.summarizeIncomplete(
                RUN,
                stored,
                REQUESTS,
                RunScoring.Options.storedIn(RUN, stored.config()),
                "RunFinished of shard 1 of 2");
        assertThat(summary.getShards()).isEqualTo(2);
        assertThat(summary.getShardCount()).isEqualTo(2);
        assertThat(summary.getMissingShards()).containsExactly(1);
        assertThat(summary.getShardClocks())
                .containsExactly(new ShardClock(0, 0.5, 1.5), new ShardClock(1, -12.0, 2.0));
    }

    @Test
    void aWholeRunOfOneShardHasNoMissingShardAndNoClocks() {
        RunSummary summary = RunScoring.summarize(
                RUN, shards(), REQUESTS::stream, RunScoring.Options.storedIn(RUN, shards().config()));
        assertThat(summary.getShardCount()).isEqualTo(1);
        assertThat(summary.getMissingShards()).isEmpty();
        assertThat(summary.getShardClocks()).isEmpty();
    }

    // ---- fixtures ----

    private static Arguments row(String field, Function<RunSummary, Number> value, double expected) {
        return Arguments.of(field, value, expected);
    }

    private static MetricSummary metric(RunSummary s, String key) {
        return s.getMetrics().stream()
                .filter(m -> m.getMetric().equals(key))
                .findFirst()
                .orElseThrow();
    }

    private static double p(RunSummary s, String key, int index) {
        return metric(s, key).getPercentiles().get(index).getValueMs();
    }

    private static RunShards shards() {
        return RunShards.ifComplete(List.of(started(0, 1), finished(0, 1, 3))).orElseThrow();
    }

    private static RunEvent started(int shard, int shardCount) {
        return new RunEvent(
                RUN,
                shard,
                shardCount,
                RunStarted.newBuilder()
                        .setScheduleStartEpochNs(ANCHOR_NS)
                        .setBackend("vllm")
                        .setModelId("m")
                        .setTokenizerId("t")
                        .setEndpointUrl("http://127.0.0.1:8000/v1/completions")
                        .setNumPrompts(3)
                        .setRequestRate(1.0)
                        .setBurstiness(1.0)
                        .setMaxConcurrency(null)
                        .setPercentileMetrics("ttft,tpot,itl,e2el")
                        .setMetricPercentiles("50,99")
                        .setGoodput("ttft:150")
                        .setConfigJson("{}")
                        .setTokenpulseVersion("test")
                        .build());
    }

    private static RunEvent finished(int shard, int shardCount, long requestsStarted) {
        return new RunEvent(
                RUN,
                shard,
                shardCount,
                RunFinished.newBuilder()
                        .setFinishedEpochNs(ANCHOR_NS + 3050 * MS)
                        .setRequestsStarted(requestsStarted)
                        .setRequestsSucceeded(0)
                        .setRequestsFailed(0)
                        .setChunkEvents(0)
                        .setRecordsNotDelivered(2)
                        .build());
    }

    private static RequestMetrics request(
            int index,
            boolean success,
            String error,
            int promptLen,
            int outputTokens,
            Long ttftMs,
            Long e2elMs,
            Double tpotNs,
            Double tokenLatencyNs,
            long queueDelayMs,
            List<Long> itlMs,
            long sentMs,
            long finishedMs) {
        return RequestMetrics.newBuilder()
                .setRunId(RUN)
                .setShardIndex(0)
                .setRequestIndex(index)
                .setRequestId("id-" + index)
                .setSuccess(success)
                .setHttpStatus(success ? 200 : 500)
                .setError(error)
                .setPromptLen(promptLen)
                .setOutputTokens(outputTokens)
                .setTtftNs(ttftMs == null ? null : ttftMs * MS)
                .setE2elNs(e2elMs == null ? null : e2elMs * MS)
                .setTpotNs(tpotNs)
                .setTokenLatencyNs(tokenLatencyNs)
                .setQueueDelayNs(queueDelayMs * MS)
                .setConnectNs(0)
                .setItlNs(itlMs.stream().map(ms -> ms * MS).toList())
                .setSentEpochNs(ANCHOR_NS + sentMs * MS)
                .setFinishedEpochNs(ANCHOR_NS + finishedMs * MS)
                .setGeneratedText("text")
                .build();
    }
}
