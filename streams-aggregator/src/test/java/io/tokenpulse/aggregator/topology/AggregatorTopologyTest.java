package io.tokenpulse.aggregator.topology;

import static io.tokenpulse.aggregator.topology.TopologyFixture.ANCHOR_MS;
import static io.tokenpulse.aggregator.topology.TopologyFixture.ANCHOR_NS;
import static io.tokenpulse.aggregator.topology.TopologyFixture.MS;
import static io.tokenpulse.aggregator.topology.TopologyFixture.RUN;
import static io.tokenpulse.aggregator.topology.TopologyFixture.failure;
import static io.tokenpulse.aggregator.topology.TopologyFixture.key;
import static io.tokenpulse.aggregator.topology.TopologyFixture.success;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tokenpulse.aggregator.scoring.ServerScoring;
import io.tokenpulse.schemas.avro.MetricSummary;
import io.tokenpulse.schemas.avro.PercentileValue;
import io.tokenpulse.schemas.avro.RequestMetrics;
import io.tokenpulse.schemas.avro.RunSummary;
import io.tokenpulse.schemas.avro.ServerMetric;
import io.tokenpulse.schemas.avro.ServerSummary;
import io.tokenpulse.schemas.avro.WindowLatency;
import io.tokenpulse.schemas.avro.WindowMetrics;
import io.tokenpulse.schemas.logging.RepeatedWarning;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AggregatorTopologyTest {
    @TempDir
    Path stateDir;

    TopologyFixture f;

    @BeforeEach
    void start() {
        f = new TopologyFixture(stateDir);
    }

    @AfterEach
    void stop() {
        f.close();
    }

    @Test
    void requestMetricsWaitForEveryChunkWhateverTheOrder() {
        f.runStarted(RUN, 0, 1, ANCHOR_NS);
        // seq 2 before the finish, then the finish, then seq 0 and 1 (out of order, after the finish)
        f.chunk(RUN, 0, 0, 2, 250 * MS);
        f.finished(RUN, 0, 0, success(900, 1000, 10, 3, 100, 150, 250));
        f.chunk(RUN, 0, 0, 0, 100 * MS);
        assertThat(f.requestMetrics.isEmpty()).isTrue();
        f.chunk(RUN, 0, 0, 1, 150 * MS);

        List<KeyValue<String, RequestMetrics>> out = f.requestMetrics.readKeyValuesToList();
        assertThat(out).hasSize(1);
        assertThat(out.get(0).key).isEqualTo(key(RUN, 0));
        RequestMetrics m = out.get(0).value;
        assertThat(m.getSuccess()).isTrue();
        assertThat(m.getTtftNs()).isEqualTo(100 * MS); // first - sent
        assertThat(m.getItlNs()).containsExactly(50 * MS, 100 * MS); // one sample per event after the first
        assertThat(m.getE2elNs()).isEqualTo(250 * MS); // last - sent
        assertThat(m.getTpotNs()).isEqualTo(75.0 * MS); // (250 - 100) / (3 - 1)
        assertThat(m.getTokenLatencyNs()).isCloseTo(250.0 * MS / 3, within(1e-6));
        assertThat(m.getQueueDelayNs()).isEqualTo(100 * MS); // sent 1000 - scheduled 900
        assertThat(m.getSentEpochNs()).isEqualTo(ANCHOR_NS + 1000 * MS);
        assertThat(m.getFinishedEpochNs()).isEqualTo(ANCHOR_NS + 1250 * MS);
        assertThat(m.getOutputTokens()).isEqualTo(3);
        assertThat(m.getGeneratedText()).isEqualTo("text");
    }

    @Test
    void theRequestKeptForTheSummaryHasNoTextAndThePublishedOneKeepsIt() {
        f.runStarted(RUN, 0, 2, ANCHOR_NS);
        f.finished(RUN, 0, 0, success(900, 1000, 10, 1, 100));
        f.chunk(RUN, 0, 0, 0, 100 * MS);
        f.finished(RUN, 0, 1, success(900, 1000, 10, 1, 100).setGeneratedText(null));
        f.chunk(RUN, 0, 1, 0, 100 * MS);

        assertThat(f.requestMetrics.readValuesToList())
                .extracting(RequestMetrics::getGeneratedText)
                .containsExactly("text", null);
        KeyValueStore<String, RequestMetrics> kept = f.driver.getKeyValueStore(RunSummarizer.REQUESTS_STORE);
        for (int index = 0; index < 2; index++) {
            RequestMetrics stored = kept.get(RunSummarizer.requestKey(RUN, index));
            assertThat(stored.getGeneratedText()).as("request %d", index).isNull();
            assertThat(stored.getTtftNs()).isEqualTo(100 * MS);
        }
    }

    @Test
    void theEventsWithoutTextAreCopiedIntoItsMetrics() {
        f.runStarted(RUN, 0, 1, ANCHOR_NS);
        // a role-only first event and an empty one mid-stream, as the load generator saw them
        f.finished(RUN, 0, 0, success(900, 1000, 10, 3, 100, 150, 200, 250).setEmptyTextEvents(List.of(0, 2)));
        f.chunk(RUN, 0, 0, 0, 100 * MS);
        f.chunk(RUN, 0, 0, 1, 150 * MS);
        f.chunk(RUN, 0, 0, 2, 200 * MS);
        f.chunk(RUN, 0, 0, 3, 250 * MS);
        f.finished(RUN, 0, 1, success(900, 1000, 10, 1, 100));
        f.chunk(RUN, 0, 1, 0, 100 * MS);

        List<RequestMetrics> out = f.requestMetrics.readValuesToList();
        assertThat(out).extracting(RequestMetrics::getEmptyTextEvents).containsExactly(List.of(0, 2), null);
    }

    @Test
    void aReasoningRequestsAnswerTimeAndThinkingAreCopiedIntoItsMetrics() {
        f.runStarted(RUN, 0, 1, ANCHOR_NS);
        f.finished(
                RUN,
                0,
                0,
                success(900, 1000, 10, 3, 100, 150, 250)
                        .setFirstAnswerNs(250 * MS)
                        .setReasoningEvents(2)
                        .setReasoningTokens(2));
        f.chunk(RUN, 0, 0, 0, 100 * MS);
        f.chunk(RUN, 0, 0, 1, 150 * MS);
        f.chunk(RUN, 0, 0, 2, 250 * MS);

        RequestMetrics m = f.requestMetrics.readValue();
        assertThat(m.getTtftNs()).as("vLLM's TTFT: the first event, thinking").isEqualTo(100 * MS);
        assertThat(m.getTtfoNs()).isEqualTo(250 * MS);
        assertThat(m.getReasoningEvents()).isEqualTo(2);
        assertThat(m.getReasoningTokens()).isEqualTo(2);

        // the live window shows TTFO after the other metrics (a run without thinking has none: the
        // window test below)
        List<WindowLatency> latencies = latestWindows(f.windowMetrics.readKeyValuesToList())
                .get(ANCHOR_MS)
                .getLatencies();
        assertThat(latencies).extracting(WindowLatency::getMetric).endsWith("queue_delay", "ttfo");
        WindowLatency ttfo = latencies.get(latencies.size() - 1);
        assertThat(ttfo.getCount()).isEqualTo(1);
        assertThat(ttfo.getMeanMs()).isEqualTo(250.0);
        assertThat(ttfo.getP99Ms()).isEqualTo(250.0);
    }

    @Test
    void joinStateIsDeletedOnceTheMetricsAreEmitted() {
        f.runStarted(RUN, 0, 1, ANCHOR_NS);
        f.request0();
        assertThat(f.requestMetrics.readValuesToList()).hasSize(1);
        for (String store : RequestJoin.storeNames()) {
            KeyValueStore<String, Object> kv = f.driver.getKeyValueStore(store);
            try (var all = kv.all()) {
                assertThat(all.hasNext()).as(store).isFalse();
            }
        }
    }

    @Test
    void duplicateChunkDoesNotCompleteARequestEarly() {
        f.runStarted(RUN, 0, 1, ANCHOR_NS);
        f.finished(RUN, 0, 0, success(900, 1000, 10, 3, 100, 150, 250));
        f.chunk(RUN, 0, 0, 0, 100 * MS);
        f.chunk(RUN, 0, 0, 0, 100 * MS);
        f.chunk(RUN, 0, 0, 1, 150 * MS);
        assertThat(f.requestMetrics.isEmpty()).isTrue();
        f.chunk(RUN, 0, 0, 2, 250 * MS);
        assertThat(f.requestMetrics.readValuesToList()).hasSize(1);
    }

    /** Chunks of three offset blocks, in a shuffled order and some twice: the ITLs still follow seq order. */
    @Test
    void chunksOfManyBlocksJoinInSeqOrderWhateverTheirArrival() {
        f.runStarted(RUN, 0, 1, ANCHOR_NS);
        int events = 150;
        long[] eventMs = new long[events];
        for (int seq = 0; seq < events; seq++) {
            eventMs[seq] = 100 + 2L * seq + (seq % 3); // uneven gaps, so a swapped pair would show
        }
        List<Integer> order = new ArrayList<>();
        for (int seq = 0; seq < events; seq++) {
            order.add(seq);
        }
        Collections.shuffle(order, new Random(7));
        order.addAll(2, List.of(order.get(0), 64, 127)); // repeats, one of them before its first arrival
        f.finished(RUN, 0, 0, success(900, 1000, 10, events, eventMs));
        for (int seq : order) {
            assertThat(f.requestMetrics.isEmpty()).isTrue();
            f.chunk(RUN, 0, 0, seq, eventMs[seq] * MS);
        }
        RequestMetrics m = f.requestMetrics.readValue();
        assertThat(m.getTtftNs()).isEqualTo(100 * MS);
        List<Long> expectedItl = new ArrayList<>();
        for (int seq = 1; seq < events; seq++) {
            expectedItl.add((eventMs[seq] - eventMs[seq - 1]) * MS);
        }
        assertThat(m.getItlNs()).containsExactlyElementsOf(expectedItl);
        assertThat(f.requestMetrics.isEmpty()).isTrue();
    }

    @Test
    void tpotIsAbsentWithOneOutputTokenAndUsesTheTokenizerCountWhenUsageIsMissing() {
        f.runStarted(RUN, 0, 1, ANCHOR_NS);
        f.request1();
        RequestMetrics m = f.requestMetrics.readValue();
        assertThat(m.getOutputTokens()).isEqualTo(1);
        assertThat(m.getTpotNs()).isNull();
        assertThat(m.getTokenLatencyNs()).isEqualTo(200.0 * MS); // E2EL 200 ms / n 1
        assertThat(m.getTtftNs()).isEqualTo(200 * MS);
        assertThat(m.getItlNs()).isEmpty();

        // n = 4 from the tokenizer, usage absent: TPOT = (400 - 100) / (4 - 1) = 100 ms
        f.finished(RUN, 0, 7, success(0, 0, 5, 4, 100, 400).setUsageCompletionTokens(null));
        f.chunk(RUN, 0, 7, 0, 100 * MS);
        f.chunk(RUN, 0, 7, 1, 400 * MS);
        assertThat(f.requestMetrics.readValue().getTpotNs()).isEqualTo(100.0 * MS);
    }

    @Test
    void failedRequestWithoutChunksIsEmittedAtOnceWithItsReason() {
        f.runStarted(RUN, 0, 1, ANCHOR_NS);
        f.request2();
        RequestMetrics m = f.requestMetrics.readValue();
        assertThat(m.getSuccess()).isFalse();
        assertThat(m.getError()).isEqualTo("HTTP 500");
        assertThat(m.getHttpStatus()).isEqualTo(500);
        assertThat(m.getTtftNs()).isNull();
        assertThat(m.getE2elNs()).isNull();
        assertThat(m.getFinishedEpochNs()).isEqualTo(ANCHOR_NS + 3050 * MS);
    }

    @Test
    void requestBeforeItsShardStartedWaitsForTheAnchor() {
        f.request0();
        assertThat(f.requestMetrics.isEmpty()).isTrue();
        f.runStarted(RUN, 0, 1, ANCHOR_NS);
        assertThat(f.requestMetrics.readValue().getSentEpochNs()).isEqualTo(ANCHOR_NS + 1000 * MS);
    }

    @Test
    void runSummaryHasEveryFieldWorkedOutByHand() {
        f.runStarted(RUN, 0, 1, ANCHOR_NS);
        f.request0();
        f.request1();
        f.request2();
        assertThat(f.summaries.isEmpty()).isTrue();
        f.runFinished(RUN, 0, 1, 3, ANCHOR_NS + 3050 * MS);

        List<KeyValue<String, RunSummary>> out = f.summaries.readKeyValuesToList();
        assertThat(out).hasSize(1);
        assertThat(out.get(0).key).isEqualTo(RUN);
        RunSummary s = out.get(0).value;
        double seconds = 3.05; // schedule start to the failure's end at 3050 ms
        assertThat(s.getDurationNs()).isEqualTo(3050 * MS);
        assertThat(s.getNumPrompts()).isEqualTo(3);
        assertThat(s.getCompleted()).isEqualTo(2);
        assertThat(s.getFailed()).isEqualTo(1);
        assertThat(s.getTotalInputTokens()).isEqualTo(30); // 10 + 20; the failure's 30 not counted
        assertThat(s.getTotalOutputTokens()).isEqualTo(4); // 3 + 1
        assertThat(s.getRequestThroughput()).isCloseTo(2 / seconds, within(1e-9));
        assertThat(s.getOutputThroughput()).isCloseTo(4 / seconds, within(1e-9));
        assertThat(s.getTotalTokenThroughput()).isCloseTo(34 / seconds, within(1e-9));
        assertThat(s.getRequestGoodput()).isCloseTo(1 / seconds, within(1e-9)); // ttft:150 met by request 0 only
        assertThat(s.getMaxOutputTokensPerS()).isEqualTo(3.0); // request 0's three events in second 0
        assertThat(s.getMaxConcurrentRequests()).isEqualTo(1);
        assertThat(s.getRtfx()).as("no request sent audio").isZero();
        assertThat(s.getItlExact()).isTrue();
        assertThat(s.getErrors()).isEqualTo(Map.of("HTTP 500", 1L));
        assertThat(s.getShards()).isEqualTo(1);
        assertThat(s.getRecordsNotDelivered()).isEqualTo(2);
        assertThat(s.getBackend()).isEqualTo("vllm");
        assertThat(s.getDate()).matches("\\d{8}-\\d{6}");
        assertThat(s.getMetrics()).extracting(MetricSummary::getMetric).containsExactly("ttft", "tpot", "itl", "e2el");
        // ttft [100, 200]: mean 150, std 50, P99 at position 0.99 -> 199
        assertStats(s.getMetrics().get(0), 150, 150, 50, 150, 199);
        // tpot [75] (request 1 has n = 1)
        assertStats(s.getMetrics().get(1), 75, 75, 0, 75, 75);
        // itl [50, 100]: P99 = 50 + 0.99 * 50
        assertStats(s.getMetrics().get(2), 75, 75, 25, 75, 99.5);
        // e2el [250, 200]: P99 = 200 + 0.99 * 50
        assertStats(s.getMetrics().get(3), 225, 225, 25, 225, 249.5);
    }

    @Test
    void anAudioRunsRtfxIsItsSuccessfulRequestsAudioSecondsOverTheDuration() {
        f.runStarted(RUN, 0, 1, ANCHOR_NS);
        f.finished(RUN, 0, 0, success(900, 1000, 10, 1, 100).setInputAudioDurationS(5.0));
        f.chunk(RUN, 0, 0, 0, 100 * MS);
        f.finished(RUN, 0, 1, success(2000, 2000, 20, 1, 200).setInputAudioDurationS(2.5));
        f.chunk(RUN, 0, 1, 0, 200 * MS);
        f.finished(RUN, 0, 2, failure(3000, 3050, "HTTP 500").setInputAudioDurationS(5.0));
        f.runFinished(RUN, 0, 1, 3, ANCHOR_NS + 3050 * MS);

        assertThat(f.requestMetrics.readValuesToList())
                .as("each request keeps its seconds, the failure's too")
                .extracting(RequestMetrics::getInputAudioDurationS)
                .containsExactly(5.0, 2.5, 5.0);
        RunSummary s = f.summaries.readValue();
        // the failure's 5 s do not count: (5 + 2.5) s over the 3.05 s from the schedule start to its end
        assertThat(s.getRtfx()).isCloseTo(7.5 / 3.05, within(1e-9));
    }

    private static void assertStats(MetricSummary m, double mean, double median, double std, double p50, double p99) {
        assertThat(m.getMeanMs()).as(m.getMetric() + " mean").isCloseTo(mean, within(1e-9));
        assertThat(m.getMedianMs()).as(m.getMetric() + " median").isCloseTo(median, within(1e-9));
        assertThat(m.getStdMs()).as(m.getMetric() + " std").isCloseTo(std, within(1e-9));
        assertThat(m.getPercentiles())
                .extracting(PercentileValue::getPercentile)
                .containsExactly(50.0, 99.0);
        assertThat(m.getPercentiles().get(0).getValueMs())
                .as(m.getMetric() + " p50")
                .isCloseTo(p50, within(1e-9));
        assertThat(m.getPercentiles().get(1).getValueMs())
                .as(m.getMetric() + " p99")
                .isCloseTo(p99, within(1e-9));
    }

    @Test
    void summaryWaitsForEveryShardAndIsEmittedOnce() {
        long anchor1 = ANCHOR_NS + 500 * MS;
        f.runStarted(RUN, 0, 2, ANCHOR_NS);
        f.runStarted(RUN, 1, 2, anchor1);
        f.request0();
        f.runFinished(RUN, 0, 2, 1, ANCHOR_NS + 1250 * MS);
        assertThat(f.summaries.isEmpty()).as("shard 1 has not finished").isTrue();

        // shard 1: request 5 sent 0 ms after its own schedule start, one event at +300 ms
        f.finished(RUN, 1, 5, success(0, 0, 7, 1, 300));
        assertThat(f.summaries.isEmpty()).as("the request's chunk is missing").isTrue();
        f.chunk(RUN, 1, 5, 0, 300 * MS);
        assertThat(f.summaries.isEmpty()).as("shard 1's RunFinished is missing").isTrue();
        f.runFinished(RUN, 1, 2, 1, anchor1 + 300 * MS);

        RunSummary s = f.summaries.readValue();
        assertThat(s.getShards()).isEqualTo(2);
        assertThat(s.getNumPrompts()).isEqualTo(2);
        assertThat(s.getCompleted()).isEqualTo(2);
        assertThat(s.getTotalInputTokens()).isEqualTo(17);
        assertThat(s.getDurationNs()).isEqualTo(1250 * MS); // both end at +1250 ms of shard 0's start
        assertThat(s.getRecordsNotDelivered()).isEqualTo(4);

        f.runFinished(RUN, 1, 2, 1, anchor1 + 300 * MS); // a duplicate
        f.request1(); // a request nobody announced
        assertThat(f.summaries.isEmpty()).isTrue();
    }

    /**
     * A shard's RunStarted that comes after its other records releases its requests, and the summary
     * they complete comes after them: it counts them all, carries the RunStarted's timestamp, and the
     * run's windows are whole when it passes (they flush with it, before any wall-clock flush).
     */
    @Test
    void aRunStartedThatComesLastReleasesItsRequestsBeforeTheSummaryTheyComplete() {
        f.runStarted(RUN, 0, 2, ANCHOR_NS);
        f.request0(); // finishes at +1.25 s
        f.runFinished(RUN, 0, 2, 1, ANCHOR_NS + 1250 * MS);
        f.finished(RUN, 1, 5, success(0, 0, 7, 1, 300)); // finishes 300 ms after shard 1's start
        f.chunk(RUN, 1, 5, 0, 300 * MS);
        f.runFinished(RUN, 1, 2, 1, ANCHOR_NS + 800 * MS);
        assertThat(f.requestMetrics.readValuesToList())
                .extracting(RequestMetrics::getRequestIndex)
                .containsExactly(0);
        assertThat(f.windowMetrics.readValuesToList())
                .extracting(WindowMetrics::getCompleted)
                .containsExactly(1L);
        assertThat(f.summaries.isEmpty()).as("shard 1 has not started").isTrue();

        f.runStartedBeforeAFlush(RUN, 1, 2, ANCHOR_NS + 500 * MS);

        RequestMetrics released = f.requestMetrics.readValue();
        assertThat(released.getRequestIndex()).isEqualTo(5);
        assertThat(released.getFinishedEpochNs()).isEqualTo(ANCHOR_NS + 800 * MS);
        TestRecord<String, RunSummary> summary = f.summaries.readRecord();
        assertThat(summary.getValue().getCompleted()).isEqualTo(2);
        assertThat(summary.getRecordTime().toEpochMilli()).isEqualTo(ANCHOR_MS + 500);
        assertThat(f.summaries.isEmpty()).isTrue();
        assertThat(f.windowMetrics.readValuesToList())
                .as("flushed with the summary, with the released request")
                .extracting(WindowMetrics::getCompleted)
                .containsExactly(2L);
        f.settle();
        assertThat(f.windowMetrics.isEmpty())
                .as("nothing left for the wall-clock flush")
                .isTrue();
    }

    @Test
    void runWithoutRequestsIsSummarizedWithZeros() {
        f.runStarted(RUN, 0, 1, ANCHOR_NS);
        f.runFinished(RUN, 0, 1, 0, ANCHOR_NS + 2000 * MS);
        RunSummary s = f.summaries.readValue();
        assertThat(s.getCompleted()).isZero();
        assertThat(s.getFailed()).isZero();
        assertThat(s.getDurationNs()).isEqualTo(2000 * MS);
        assertThat(s.getRequestThroughput()).isZero();
        assertThat(s.getMaxOutputTokensPerS()).isZero();
        assertThat(s.getMetrics()).allSatisfy(m -> assertThat(m.getMeanMs()).isZero());
    }

    @Test
    void summaryWaitsForRequestsStillInFlightWhenTheShardFinishes() {
        f.runStarted(RUN, 0, 1, ANCHOR_NS);
        f.runFinished(RUN, 0, 1, 1, ANCHOR_NS + 2000 * MS);
        assertThat(f.summaries.isEmpty()).isTrue();
        f.request2();
        assertThat(f.summaries.readValue().getFailed()).isEqualTo(1);
    }

    @Test
    void windowCountsRequestsAndSamplesInTheWindowOfTheirFinish() {
        f.runStarted(RUN, 0, 1, ANCHOR_NS);
        f.request0();
        f.request1();
        f.request2();
        WindowMetrics w = latestWindows(f.windowMetrics.readKeyValuesToList()).get(ANCHOR_MS);
        assertThat(w.getRunId()).isEqualTo(RUN);
        assertThat(w.getWindowEndEpochMs()).isEqualTo(ANCHOR_MS + 10_000);
        assertThat(w.getCompleted()).isEqualTo(2);
        assertThat(w.getFailed()).isEqualTo(1);
        assertThat(w.getInputTokens()).isEqualTo(30);
        assertThat(w.getOutputTokens()).isEqualTo(4);
        assertThat(w.getRequestThroughput()).isCloseTo(0.2, within(1e-12)); // 2 / 10 s
        assertThat(w.getOutputThroughput()).isCloseTo(0.4, within(1e-12));
        assertThat(w.getTotalTokenThroughput()).isCloseTo(3.4, within(1e-12));
        Map<String, WindowLatency> byMetric = new java.util.HashMap<>();
        w.getLatencies().forEach(l -> byMetric.put(l.getMetric(), l));
        assertThat(byMetric.keySet()).containsExactlyInAnyOrder("ttft", "tpot", "itl", "e2el", "queue_delay");
        assertThat(byMetric.get("ttft").getCount()).isEqualTo(2);
        assertThat(byMetric.get("ttft").getMeanMs()).isCloseTo(150, within(1e-9));
        assertThat(byMetric.get("ttft").getP90Ms()).isCloseTo(190, within(1e-9)); // 100 + 0.9 * 100
        assertThat(byMetric.get("itl").getCount()).isEqualTo(2);
        assertThat(byMetric.get("itl").getP99Ms()).isCloseTo(99.5, within(1e-9));
        assertThat(byMetric.get("queue_delay").getMeanMs()).isCloseTo(50, within(1e-9)); // 100 and 0
    }

    @Test
    void scrapesOfTheServerJoinTheWindowOfTheirScrapeTime() {
        f.scraped(RUN, ANCHOR_MS, "vllm:num_requests_running", 2);
        f.scraped(RUN, ANCHOR_MS, "vllm:num_preemptions_total", 5); // the baseline: before the run
        f.scraped(RUN, ANCHOR_MS, "process_cpu_seconds_total", 1); // not in the common set
        f.scraped(RUN, ANCHOR_MS + 2_000, "vllm:num_requests_running", 4);
        f.scraped(RUN, ANCHOR_MS + 2_000, "vllm:num_preemptions_total", 7);
        f.scraped(RUN, ANCHOR_MS + 12_000, "vllm:num_requests_running", 0);
        f.scraped(RUN, ANCHOR_MS + 12_000, "vllm:num_preemptions_total", 8);

        Map<Long, WindowMetrics> windows = latestWindows(f.windowMetrics.readKeyValuesToList());

        WindowMetrics first = windows.get(ANCHOR_MS);
        assertThat(first.getCompleted()).isZero();
        assertThat(first.getServerMeanRunning()).isEqualTo(3.0);
        assertThat(first.getServerMaxRunning()).isEqualTo(4.0);
        assertThat(first.getServerPreemptions()).isEqualTo(2.0); // 7 - 5: growth since the previous scrape
        assertThat(first.getServerMeanTtftMs()).isNull(); // not scraped
        WindowMetrics second = windows.get(ANCHOR_MS + 10_000);
        assertThat(second.getServerMeanRunning()).isZero();
        assertThat(second.getServerPreemptions()).isEqualTo(1.0); // 8 - 7, across the window boundary
    }

    @Test
    void aRunsScrapeStateIsDeletedOnceItsLastScrapeCanNoLongerReachAWindow() {
        f.runStarted(RUN, 0, 1, ANCHOR_NS);
        f.scraped(RUN, ANCHOR_MS, "vllm:num_preemptions_total", 5);
        f.scraped("r2", ANCHOR_MS, "vllm:num_preemptions_total", 1); // a run still going
        f.runFinished(RUN, 0, 1, 0, ANCHOR_NS + 2000 * MS);
        assertThat(f.summaries.readValuesToList()).hasSize(1);
        // bench's last scrape comes after the summary: its growth still counts, from the series' state
        f.scraped(RUN, ANCHOR_MS + 2_100, "vllm:num_preemptions_total", 7);
        List<KeyValue<String, WindowMetrics>> windows = f.windowMetrics.readKeyValuesToList().stream()
                .filter(window -> window.key.equals(RUN))
                .toList();
        assertThat(latestWindows(windows).get(ANCHOR_MS).getServerPreemptions()).isEqualTo(2.0);

        // kept for the window size (10 s) plus its grace (30 s) after the summary
        f.driver.advanceWallClockTime(Duration.ofSeconds(39));
        assertThat(keys(ServerSeries.LAST_STORE)).contains(RUN + "/http://s/metrics vllm:num_preemptions_total{}");
        f.driver.advanceWallClockTime(Duration.ofSeconds(41));
        assertThat(keys(ServerSeries.LAST_STORE)).isNotEmpty().allMatch(key -> key.startsWith("r2/"));
        assertThat(keys(ServerSeries.FIRST_SCRAPE_STORE)).containsExactly("r2/http://s/metrics");
        assertThat(keys(ServerSeries.DONE_STORE)).isEmpty();
    }

    @Test
    void summaryWaitsForTheAnnouncedScrapesAndCarriesTheServerSectionReplayWouldScore() {
        List<ServerMetric> records = new ArrayList<>();
        // before the schedule start (the health check): the counters' baseline, no part of the section
        records.add(f.scraped(RUN, ANCHOR_MS - 1_000, "vllm:num_requests_running", 9));
        records.add(f.scraped(RUN, ANCHOR_MS - 1_000, "vllm:num_preemptions_total", 5));
        records.add(f.scraped(RUN, ANCHOR_MS - 1_000, "process_cpu_seconds_total", 1)); // counted, not known
        f.runStarted(RUN, 0, 1, ANCHOR_NS);
        records.add(f.scraped(RUN, ANCHOR_MS + 1_000, "vllm:num_requests_running", 4));
        records.add(f.scraped(RUN, ANCHOR_MS + 1_000, "vllm:num_preemptions_total", 7));
        f.runFinished(RUN, 0, 1, 0, ANCHOR_NS + 2_000 * MS, 7L);
        assertThat(f.summaries.isEmpty()).as("5 of 7 scrape records").isTrue();
        records.add(f.scraped(RUN, ANCHOR_MS + 2_000, "vllm:num_requests_running", 2));
        assertThat(f.summaries.isEmpty()).as("6 of 7 scrape records").isTrue();
        records.add(f.scraped(RUN, ANCHOR_MS + 2_000, "vllm:num_preemptions_total", 8));

        RunSummary s = f.summaries.readValue();
        ServerSummary server = s.getServer();
        assertThat(server.getServerMeanRunning()).isEqualTo(3.0); // (4 + 2) / 2: the scrapes from the start on
        assertThat(server.getServerMaxRunning()).isEqualTo(4.0);
        assertThat(server.getServerPreemptions()).isEqualTo(3.0); // 8 - 5: from the last scrape before the start
        assertThat(server.getServerMeanWaiting()).isNull(); // not scraped
        assertThat(server.getServerTtftGapMs()).isNull();
        // the same section replay scores from the stored records
        assertThat(server)
                .isEqualTo(ServerScoring.section(records, s.getMetrics(), ANCHOR_NS))
                .isNotNull();
        for (String store : List.of(
                ServerSection.RECORDS_STORE,
                ServerSection.START_STORE,
                ServerSection.SECTION_STORE,
                ServerSection.AWAITING_START_STORE)) {
            assertThat(keys(store)).as(store).isEmpty();
        }
        f.scraped(RUN, ANCHOR_MS + 2_500, "vllm:num_requests_running", 1); // late: no second summary
        assertThat(f.summaries.isEmpty()).isTrue();
    }

    /**
     * As when the aggregator starts after the load (bench --frugal): the run's scrapes, those of the
     * run's time included, come before its RunStarted; they wait for the start and then make the same
     * section.
     */
    @Test
    void scrapesThatComeBeforeTheRunStartedMakeTheSameSectionOnceItIsIn() {
        List<ServerMetric> records = new ArrayList<>();
        records.add(f.scraped(RUN, ANCHOR_MS - 1_000, "vllm:num_requests_running", 9));
        records.add(f.scraped(RUN, ANCHOR_MS - 1_000, "vllm:num_preemptions_total", 5));
        records.add(f.scraped(RUN, ANCHOR_MS + 1_000, "vllm:num_requests_running", 4));
        records.add(f.scraped(RUN, ANCHOR_MS + 1_000, "vllm:num_preemptions_total", 7));
        records.add(f.scraped(RUN, ANCHOR_MS + 2_000, "vllm:num_requests_running", 2));
        records.add(f.scraped(RUN, ANCHOR_MS + 2_000, "vllm:num_preemptions_total", 8));
        assertThat(keys(ServerSection.AWAITING_START_STORE)).hasSize(6);

        f.runStarted(RUN, 0, 1, ANCHOR_NS);
        assertThat(keys(ServerSection.AWAITING_START_STORE)).isEmpty();
        f.runFinished(RUN, 0, 1, 0, ANCHOR_NS + 2_000 * MS, 6L);

        RunSummary s = f.summaries.readValue();
        ServerSummary server = s.getServer();
        assertThat(server.getServerMeanRunning()).isEqualTo(3.0);
        assertThat(server.getServerMaxRunning()).isEqualTo(4.0);
        assertThat(server.getServerPreemptions()).isEqualTo(3.0);
        assertThat(server).isEqualTo(ServerScoring.section(records, s.getMetrics(), ANCHOR_NS));
    }

    @Test
    void aRunWhoseScrapesAllFailedIsNotWaitedForAndOneThatScrapedNothingHasNoSection() {
        f.runStarted(RUN, 0, 1, ANCHOR_NS);
        f.runFinished(RUN, 0, 1, 0, ANCHOR_NS + 2_000 * MS, 0L); // the endpoint was down all along
        assertThat(f.summaries.readValue().getServer()).isNull();

        // a load generator that announces nothing (no --server-metrics, or older): no section, no wait
        f.runStarted("r2", 0, 1, ANCHOR_NS);
        f.scraped("r2", ANCHOR_MS + 1_000, "vllm:num_requests_running", 4);
        f.runFinished("r2", 0, 1, 0, ANCHOR_NS + 2_000 * MS);
        assertThat(f.summaries.readValue().getServer()).isNull();
    }

    /**
     * Once a run is summarized, its records that still come (a duplicate RunStarted, a request nobody
     * announced, a scrape after RunFinished) stop where they enter the run stage: no store keeps
     * anything of the run but its marker.
     */
    @Test
    void lateRecordsOfASummarizedRunLeaveNoStateInTheRunStage() {
        f.runStarted(RUN, 0, 1, ANCHOR_NS);
        f.scraped(RUN, ANCHOR_MS + 1_000, "vllm:num_requests_running", 4);
        f.request0();
        f.runFinished(RUN, 0, 1, 1, ANCHOR_NS + 2_000 * MS, 1L);
        assertThat(f.summaries.readValuesToList()).hasSize(1);
        f.requestMetrics.readValuesToList();

        f.runStarted(RUN, 0, 1, ANCHOR_NS);
        f.request1();
        f.finished(RUN, 1, 3, success(0, 0, 7, 1, 300)); // a shard that never started: it would wait
        f.chunk(RUN, 1, 3, 0, 300 * MS);
        f.scraped(RUN, ANCHOR_MS + 2_500, "vllm:num_requests_running", 1);

        assertThat(f.summaries.isEmpty()).isTrue();
        assertThat(f.requestMetrics.isEmpty()).isTrue();
        for (String store : List.of(
                ShardAnchors.Records.STORE,
                ShardAnchors.AWAITING_ANCHOR_STORE,
                RunSummarizer.REQUESTS_STORE,
                RunSummarizer.REQUEST_COUNT_STORE,
                ServerSection.RECORDS_STORE,
                ServerSection.START_STORE,
                ServerSection.SECTION_STORE,
                ServerSection.AWAITING_START_STORE)) {
            assertThat(keys(store)).as(store).isEmpty();
        }
        assertThat(keys(SummarizedRuns.STORE)).containsExactly(RUN);
    }

    private List<String> keys(String store) {
        KeyValueStore<String, Object> kv = f.driver.getKeyValueStore(store);
        List<String> keys = new ArrayList<>();
        try (var all = kv.all()) {
            all.forEachRemaining(entry -> keys.add(entry.key));
        }
        return keys;
    }

    @Test
    void requestFinishingAfterItsWindowClosedMissesTheWindowButCountsInTheSummary() {
        f.close();
        f = new TopologyFixture(TopologyFixture.plainTopics(), stateDir.resolve("no-grace"), Duration.ZERO);
        f.runStarted(RUN, 0, 1, ANCHOR_NS);
        f.request0(); // finishes at +1.25 s
        f.finished(RUN, 0, 9, success(25_000, 25_000, 1, 1, 100)); // finishes at +25.1 s
        f.chunk(RUN, 0, 9, 0, 100 * MS);
        f.windowMetrics.readKeyValuesToList();
        f.request1(); // finishes at +2.2 s: late
        f.runFinished(RUN, 0, 1, 3, ANCHOR_NS + 25_100 * MS);

        assertThat(f.windowMetrics.readKeyValuesToList()).isEmpty();
        assertThat(f.summaries.readValue().getCompleted()).isEqualTo(3);
    }

    @Test
    void unreadableRecordGoesToTheDeadLetterTopicWithItsOriginAndTheAppCarriesOn() {
        f.runStarted(RUN, 0, 1, ANCHOR_NS);
        byte[] garbage = {1, 2, 3};
        f.rawChunks.pipeInput(key(RUN, 0), garbage);
        f.request0();

        TestRecord<String, byte[]> dead = f.deadLetters.readRecord();
        assertThat(dead.key()).isEqualTo(key(RUN, 0));
        assertThat(dead.value()).isEqualTo(garbage);
        Headers h = dead.headers();
        assertThat(header(h, DeadLetters.SOURCE_TOPIC)).isEqualTo("chunks");
        assertThat(header(h, DeadLetters.SOURCE_PARTITION)).isEqualTo("0");
        assertThat(header(h, DeadLetters.SOURCE_OFFSET)).isEqualTo("0");
        assertThat(header(h, DeadLetters.REASON)).isNotBlank();
        assertThat(f.requestMetrics.readValuesToList()).hasSize(1);
        assertThat(deadLetteredTotal()).isEqualTo(1.0);
    }

    @Test
    void aThousandPoisonRecordsWriteAFewLogLinesNotAThousand() {
        f.runStarted(RUN, 0, 1, ANCHOR_NS);
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream stderr = System.err;
        System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8)); // slf4j-simple writes to System.err
        try {
            for (int i = 0; i < 1000; i++) {
                f.rawChunks.pipeInput(key(RUN, 0), new byte[] {(byte) i, 2, 3});
            }
        } finally {
            System.setErr(stderr);
        }

        assertThat(f.deadLetters.readRecordsToList()).hasSize(1000);
        assertThat(deadLetteredTotal()).isEqualTo(1000.0);
        // The first few in full (fewer when an earlier test of this JVM had some), the rest counted
        // (one count line if a minute passed since an earlier test's last line).
        assertThat(log.toString(StandardCharsets.UTF_8).lines().filter(l -> l.contains("dead-lettered")))
                .hasSizeLessThanOrEqualTo(RepeatedWarning.DETAILED + 1);
    }

    double deadLetteredTotal() {
        return f.driver.metrics().entrySet().stream()
                .filter(e -> e.getKey().name().equals(DeadLetters.METRIC_OPERATION + "-total"))
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue())
                .sum();
    }

    static String header(Headers headers, String name) {
        return new String(headers.lastHeader(name).value(), StandardCharsets.UTF_8);
    }

    static Map<Long, WindowMetrics> latestWindows(List<KeyValue<String, WindowMetrics>> updates) {
        Map<Long, WindowMetrics> latest = new java.util.TreeMap<>();
        updates.forEach(kv -> latest.put(kv.value.getWindowStartEpochMs(), kv.value));
        return latest;
    }
}
