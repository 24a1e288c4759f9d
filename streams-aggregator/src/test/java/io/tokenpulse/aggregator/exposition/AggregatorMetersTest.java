package io.tokenpulse.aggregator.exposition;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MockClock;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.tokenpulse.aggregator.topology.TopologyListener;
import io.tokenpulse.schemas.avro.Chunk;
import io.tokenpulse.schemas.avro.ChunkBatch;
import io.tokenpulse.schemas.avro.MetricSummary;
import io.tokenpulse.schemas.avro.PercentileValue;
import io.tokenpulse.schemas.avro.ReasoningSummary;
import io.tokenpulse.schemas.avro.RequestMetrics;
import io.tokenpulse.schemas.avro.RunEvent;
import io.tokenpulse.schemas.avro.RunStarted;
import io.tokenpulse.schemas.avro.RunSummary;
import io.tokenpulse.schemas.avro.ServerSummary;
import io.tokenpulse.schemas.avro.WindowLatency;
import io.tokenpulse.schemas.avro.WindowMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.LongStream;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AggregatorMetersTest {
    static final String RUN = "r1";
    static final String TAGS = "backend=\"vllm\",model=\"m\",run_id=\"r1\"";
    static final String QUANTILE_TAGS = "backend=\"vllm\",model=\"m\",quantile=\"%s\",run_id=\"r1\"";
    static final String TTFT_TAGS = "backend=\"vllm\",metric=\"ttft\",model=\"m\",quantile=\"%s\",run_id=\"r1\"";
    static final long MS = 1_000_000L;
    static final long EPOCH_MS = 1_700_000_000_000L;

    final MockClock clock = new MockClock();
    final PrometheusMeterRegistry registry =
            new PrometheusMeterRegistry(PrometheusConfig.DEFAULT, new PrometheusRegistry(), clock);
    final AggregatorMeters meters = new AggregatorMeters(registry, Duration.ofMinutes(5), clock, null);

    @AfterEach
    void close() {
        meters.close();
    }

    @Test
    void requestMetersAppearWithPrometheusNamesTagsAndBaseUnits() {
        meters.onRunEvent(started(RUN, 4.0));
        meters.onRequestMetrics(success(RUN, 0, 120 * MS, 1_120 * MS, List.of(20 * MS, 30 * MS, 50 * MS), 11));
        meters.onRequestMetrics(failure(RUN, 1, 503));

        String scrape = registry.scrape();

        assertThat(scrape)
                .contains("# TYPE tokenpulse_request_ttft_seconds histogram")
                .contains("tokenpulse_request_ttft_seconds_count{" + TAGS + "} 1")
                .contains("tokenpulse_request_ttft_seconds_sum{" + TAGS + "} 0.12")
                .contains("tokenpulse_request_itl_seconds_count{" + TAGS + "} 3")
                .contains("tokenpulse_request_tpot_seconds_sum{" + TAGS + "} 0.1")
                .contains("tokenpulse_request_e2el_seconds_sum{" + TAGS + "} 1.12")
                .contains("tokenpulse_request_queue_delay_seconds_count{" + TAGS + "} 1")
                .contains("tokenpulse_requests_total{" + TAGS.replace(",run_id", ",reason=\"none\",run_id")
                        + ",status=\"success\"} 1")
                .contains("tokenpulse_requests_total{" + TAGS.replace(",run_id", ",reason=\"http_503\",run_id")
                        + ",status=\"failure\"} 1")
                .contains("tokenpulse_output_tokens_total{" + TAGS + "} 11")
                .contains("tokenpulse_input_tokens_total{" + TAGS + "} 100")
                .contains("tokenpulse_run_configured_requests_per_second{" + TAGS + "} 4.0")
                .contains("tokenpulse_runs_active 1");
        assertThat(scrape).doesNotContain("request_id");
    }

    @Test
    void aRequestThatThoughtAddsItsTtfoAndRunsWithoutThinkingHaveNoTtfoSeries() {
        meters.onRunEvent(started(RUN, 4.0));
        RequestMetrics answeredOnly = success(RUN, 0, 120 * MS, 1_120 * MS, List.of(20 * MS), 11);
        answeredOnly.setTtfoNs(120 * MS); // every chat answer has a first answer token; it did not think
        meters.onRequestMetrics(answeredOnly);
        meters.onWindowMetrics(window(RUN, EPOCH_MS, 250.0, 2.5));
        assertThat(registry.scrape()).doesNotContain("ttfo");

        RequestMetrics thought = success(RUN, 1, 120 * MS, 1_120 * MS, List.of(20 * MS), 11);
        thought.setTtfoNs(320 * MS);
        thought.setReasoningEvents(4);
        meters.onRequestMetrics(thought);
        WindowMetrics withTtfo = window(RUN, EPOCH_MS + 10_000, 250.0, 2.5);
        List<WindowLatency> latencies = new java.util.ArrayList<>(withTtfo.getLatencies());
        latencies.add(new WindowLatency("ttfo", 1L, 320.0, 320.0, 320.0, 320.0, 0.0));
        withTtfo.setLatencies(latencies);
        meters.onWindowMetrics(withTtfo);

        assertThat(registry.scrape())
                .contains("tokenpulse_request_ttfo_seconds_count{" + TAGS + "} 1")
                .contains("tokenpulse_request_ttfo_seconds_sum{" + TAGS + "} 0.32")
                .contains("tokenpulse_window_ttfo_seconds{" + QUANTILE_TAGS.formatted("0.99") + "} 0.32")
                .contains("tokenpulse_window_ttfo_mean_seconds{" + TAGS + "} 0.32");

        // the next window had no request that thought: its TTFO is unknown, not the previous window's
        meters.onWindowMetrics(window(RUN, EPOCH_MS + 20_000, 250.0, 2.5));
        assertThat(registry.scrape())
                .contains("tokenpulse_window_ttfo_seconds{" + QUANTILE_TAGS.formatted("0.99") + "} NaN")
                .contains("tokenpulse_window_ttfo_mean_seconds{" + TAGS + "} NaN")
                .contains("tokenpulse_window_ttft_seconds{" + QUANTILE_TAGS.formatted("0.99") + "} 0.25");
    }

    @Test
    void sessionTurnsAddTheirTtftByTurnWithLaterTurnsSharingOneLabel() {
        meters.onRunEvent(started(RUN, 4.0));
        meters.onRequestMetrics(success(RUN, 0, 120 * MS, 1_120 * MS, List.of(20 * MS), 11));
        assertThat(registry.scrape()).as("a single request is no turn").doesNotContain("ttft_by_turn");

        int[] turns = {0, 1, 9, 10, 42};
        long[] ttftMs = {100, 200, 300, 400, 500};
        for (int i = 0; i < turns.length; i++) {
            RequestMetrics turn = success(RUN, i + 1, ttftMs[i] * MS, 1_000 * MS, List.of(20 * MS), 11);
            turn.setSessionId("r1-session-0");
            turn.setTurnIndex(turns[i]);
            meters.onRequestMetrics(turn);
        }

        String scrape = registry.scrape();
        assertThat(scrape)
                .contains("# TYPE tokenpulse_request_ttft_by_turn_seconds histogram")
                .contains("tokenpulse_request_ttft_by_turn_seconds_count{" + turnTags("0") + "} 1")
                .contains("tokenpulse_request_ttft_by_turn_seconds_sum{" + turnTags("1") + "} 0.2")
                .contains("tokenpulse_request_ttft_by_turn_seconds_sum{" + turnTags("9") + "} 0.3")
                .contains("tokenpulse_request_ttft_by_turn_seconds_count{" + turnTags("10+") + "} 2")
                .contains("tokenpulse_request_ttft_by_turn_seconds_sum{" + turnTags("10+") + "} 0.9")
                .contains("tokenpulse_request_ttft_seconds_count{" + TAGS + "} 6");
        assertThat(scrape).doesNotContain("turn=\"42\"").doesNotContain("turn=\"10\"");
    }

    private static String turnTags(String turn) {
        return TAGS.replace("run_id=\"r1\"", "run_id=\"r1\",turn=\"" + turn + "\"");
    }

    @Test
    void aLoraRunsRequestMetersCarryEachRequestsModelAndRunMetersTheRunsOnce() {
        RunEvent start = started(RUN, 4.0);
        ((RunStarted) start.getEvent()).setLoraModules(List.of("sql-lora", "chat-lora"));
        meters.onRunEvent(start);
        RequestMetrics sql = success(RUN, 0, 120 * MS, 1_120 * MS, List.of(MS), 2);
        sql.setModel("sql-lora");
        RequestMetrics chat = success(RUN, 1, 80 * MS, 1_000 * MS, List.of(MS), 2);
        chat.setModel("chat-lora");
        meters.onRequestMetrics(sql);
        meters.onRequestMetrics(chat);

        String scrape = registry.scrape();
        assertThat(scrape)
                .contains("tokenpulse_request_ttft_seconds_count{" + TAGS.replace("model=\"m\"", "model=\"sql-lora\"")
                        + "} 1")
                .contains("tokenpulse_request_ttft_seconds_sum{" + TAGS.replace("model=\"m\"", "model=\"chat-lora\"")
                        + "} 0.08")
                .contains("tokenpulse_run_configured_requests_per_second{" + TAGS + "} 4.0")
                .doesNotContain("tokenpulse_run_configured_requests_per_second{backend=\"vllm\",model=\"sql-lora\"");
    }

    @Test
    void goodputCountsSuccessfulRequestsMeetingEveryGoodputSloOfTheRun() {
        RunEvent start = started(RUN, 4.0);
        ((RunStarted) start.getEvent()).setGoodput("ttft:150 e2el:2000");
        meters.onRunEvent(start);
        meters.onRequestMetrics(success(RUN, 0, 120 * MS, 1_120 * MS, List.of(MS), 2)); // meets both
        meters.onRequestMetrics(success(RUN, 1, 150 * MS, 2_000 * MS, List.of(MS), 2)); // equal to both: meets
        meters.onRequestMetrics(success(RUN, 2, 151 * MS, 1_000 * MS, List.of(MS), 2)); // TTFT too slow
        meters.onRequestMetrics(success(RUN, 3, 100 * MS, 2_001 * MS, List.of(MS), 2)); // E2EL too slow
        meters.onRequestMetrics(failure(RUN, 4, 503));

        assertThat(registry.scrape()).contains("tokenpulse_goodput_requests_total{" + TAGS + "} 2.0");
    }

    @Test
    void aHealthyRunShowsZeroFailuresNotNoData() {
        meters.onRunEvent(started(RUN, 4.0));

        String scrape = registry.scrape();
        assertThat(scrape)
                .containsPattern("tokenpulse_requests_total\\{[^}]*reason=\"stream\"[^}]*status=\"failure\"[^}]*} 0.0")
                .containsPattern(
                        "tokenpulse_requests_total\\{[^}]*reason=\"no_response\"[^}]*status=\"failure\"[^}]*} 0.0")
                .containsPattern("tokenpulse_requests_total\\{[^}]*reason=\"none\"[^}]*status=\"success\"[^}]*} 0.0");
    }

    @Test
    void withoutGoodputNoGoodputSeriesIsExported() {
        meters.onRunEvent(started(RUN, 4.0));
        meters.onRequestMetrics(success(RUN, 0, 120 * MS, 1_120 * MS, List.of(MS), 2));

        assertThat(registry.scrape()).doesNotContain("tokenpulse_goodput");
    }

    @Test
    void aFinishedRunsSummaryBecomesGaugesOfItsFinalNumbers() {
        meters.onRunEvent(started(RUN, 4.0));
        RunSummary summary = RunSummary.newBuilder(summaryTemplate())
                .setCompleted(98)
                .setFailed(2)
                .setDurationNs(12_500_000_000L)
                .setTotalInputTokens(9_800)
                .setTotalOutputTokens(4_900)
                .setRequestThroughput(7.84)
                .setRequestGoodput(6.5)
                .setOutputThroughput(392.0)
                .setTotalTokenThroughput(1176.0)
                .setMaxOutputTokensPerS(450.0)
                .setMaxConcurrentRequests(12)
                .setRecordsNotDelivered(3)
                .setMetrics(List.of(new MetricSummary(
                        "ttft",
                        98L,
                        52.0,
                        50.0,
                        4.0,
                        List.of(new PercentileValue(90.0, 58.0), new PercentileValue(99.9, 75.0)))))
                .setReasoning(new ReasoningSummary(
                        98L,
                        300L,
                        4_600L,
                        new MetricSummary("ttfo", 98L, 80.0, 78.0, 6.0, List.of(new PercentileValue(99.0, 95.0)))))
                .setServer(ServerSummary.newBuilder()
                        .setServerMaxRunning(7.0)
                        .setServerPrefixCacheHitRate(0.25)
                        .setServerP99TtftMs(40.0)
                        .setServerTtftGapMs(12.0)
                        .build())
                .build();

        meters.onRunSummary(summary);
        String scrape = registry.scrape();

        assertThat(scrape)
                .contains("tokenpulse_summary_requests{" + TAGS + ",status=\"success\"} 98.0")
                .contains("tokenpulse_summary_requests{" + TAGS + ",status=\"failure\"} 2.0")
                .contains("tokenpulse_summary_duration_seconds{" + TAGS + "} 12.5")
                .contains("tokenpulse_summary_tokens{"
                        + TAGS.replace("backend=\"vllm\",", "backend=\"vllm\",kind=\"output\",") + "} 4900.0")
                .contains("tokenpulse_summary_requests_per_second{" + TAGS + "} 7.84")
                .contains("tokenpulse_summary_goodput_requests_per_second{" + TAGS + "} 6.5")
                .contains("tokenpulse_summary_output_tokens_per_second{" + TAGS + "} 392.0")
                .contains("tokenpulse_summary_total_tokens_per_second{" + TAGS + "} 1176.0")
                .contains("tokenpulse_summary_peak_output_tokens_per_second{" + TAGS + "} 450.0")
                .contains("tokenpulse_summary_peak_concurrent_requests{" + TAGS + "} 12.0")
                .contains("tokenpulse_summary_records_not_delivered{" + TAGS + "} 3.0")
                .contains("tokenpulse_summary_latency_seconds{" + TTFT_TAGS.formatted("0.5") + "} 0.05")
                .contains("tokenpulse_summary_latency_seconds{" + TTFT_TAGS.formatted("0.9") + "} 0.058")
                .contains("tokenpulse_summary_latency_seconds{" + TTFT_TAGS.formatted("0.999") + "} 0.075")
                .contains("tokenpulse_summary_latency_mean_seconds{" + TAGS.replace(",model", ",metric=\"ttft\",model")
                        + "} 0.052")
                .contains("tokenpulse_summary_latency_std_seconds{" + TAGS.replace(",model", ",metric=\"ttft\",model")
                        + "} 0.004")
                .contains("tokenpulse_summary_latency_seconds{"
                        + TTFT_TAGS.replace("ttft", "ttfo").formatted("0.99") + "} 0.095")
                // the server section: what the engine exposed, times in seconds
                .contains("tokenpulse_summary_server_running_max{" + TAGS + "} 7.0")
                .contains("tokenpulse_summary_server_prefix_cache_hit_rate{" + TAGS + "} 0.25")
                .contains("tokenpulse_summary_server_ttft_p99_seconds{" + TAGS + "} 0.04")
                .contains("tokenpulse_summary_server_ttft_gap_seconds{" + TAGS + "} 0.012")
                .doesNotContain("tokenpulse_summary_server_waiting")
                .doesNotContain("tokenpulse_summary_rtfx");
    }

    @Test
    void anAudioRunsSummaryHasItsRtfx() {
        meters.onRunEvent(started(RUN, 4.0));
        meters.onRunSummary(RunSummary.newBuilder(summaryTemplate())
                .setDurationNs(12_500_000_000L)
                .setRtfx(2.4)
                .build());

        assertThat(registry.scrape()).contains("tokenpulse_summary_rtfx{" + TAGS + "} 2.4");
    }

    @ParameterizedTest(name = "percentile {0} -> quantile {1}")
    @CsvSource({"99, 0.99", "99.9, 0.999", "50, 0.5", "0, 0", "100, 1", "25.5, 0.255"})
    void percentilesBecomePrometheusQuantileLabels(double percentile, String quantile) {
        assertThat(SummaryGauges.quantile(percentile)).isEqualTo(quantile);
    }

    @Test
    void latencyBucketsReachBeyondTenMinutesSoHistogramQuantileIsNotClamped() {
        meters.onRunEvent(started(RUN, 1.0));
        meters.onRequestMetrics(success(RUN, 0, 90_000 * MS, 600_000 * MS, List.of(), 1));

        String scrape = registry.scrape();

        double largestFiniteLe = 0;
        double smallestLe = Double.MAX_VALUE;
        Matcher le = Pattern.compile("tokenpulse_request_e2el_seconds_bucket\\{[^}]*le=\"([0-9.eE+-]+)\"")
                .matcher(scrape);
        int buckets = 0;
        while (le.find()) {
            double bound = Double.parseDouble(le.group(1));
            largestFiniteLe = Math.max(largestFiniteLe, bound);
            smallestLe = Math.min(smallestLe, bound);
            buckets++;
        }
        assertThat(largestFiniteLe).isGreaterThanOrEqualTo(900.0);
        assertThat(smallestLe).isLessThanOrEqualTo(0.0001);
        assertThat(buckets).as("buckets per histogram series").isBetween(20, 120);
        assertThat(scrape).contains("tokenpulse_request_e2el_seconds_bucket{" + TAGS + ",le=\"+Inf\"} 1");
    }

    @Test
    void windowGaugesShowTheNewestWindowAndIgnoreLateUpdatesOfOlderOnes() {
        meters.onRunEvent(started(RUN, 1.0));
        meters.onWindowMetrics(window(RUN, EPOCH_MS + 10_000, 250.0, 2.5));
        meters.onWindowMetrics(window(RUN, EPOCH_MS, 999.0, 9.9));

        String scrape = registry.scrape();

        assertThat(scrape)
                .contains("tokenpulse_window_ttft_seconds{" + QUANTILE_TAGS.formatted("0.5") + "} 0.1")
                .contains("tokenpulse_window_ttft_seconds{" + QUANTILE_TAGS.formatted("0.9") + "} 0.2")
                .contains("tokenpulse_window_ttft_seconds{" + QUANTILE_TAGS.formatted("0.99") + "} 0.25")
                .contains("tokenpulse_window_ttft_mean_seconds{" + TAGS + "} 0.12")
                .contains("tokenpulse_window_queue_delay_seconds{" + QUANTILE_TAGS.formatted("0.99") + "} 0.25")
                .contains("tokenpulse_window_requests_per_second{" + TAGS + "} 2.5")
                .contains("tokenpulse_window_output_tokens_per_second{" + TAGS + "} 25.0");
    }

    @Test
    void serverGaugesFollowTheNewestScrapedWindowAndLeaveTheClientsAlone() {
        WindowMetrics beforeStart = WindowMetrics.newBuilder(window(RUN, EPOCH_MS - 10_000, 1.0, 0.0))
                .setCompleted(0)
                .setServerMeanRunning(9.0)
                .build();
        meters.onWindowMetrics(beforeStart); // scrapes before the run's start: no unknown-tagged meters
        assertThat(registry.scrape()).doesNotContain("unknown");

        meters.onRunEvent(started(RUN, 1.0));
        meters.onWindowMetrics(WindowMetrics.newBuilder(window(RUN, EPOCH_MS, 250.0, 2.5))
                .setServerMeanRunning(3.0)
                .setServerMeanTtftMs(40.0)
                .build());
        // the last scrape, after the last request finished: a window of scrapes only
        meters.onWindowMetrics(WindowMetrics.newBuilder(window(RUN, EPOCH_MS + 10_000, 999.0, 0.0))
                .setCompleted(0)
                .setServerMeanRunning(0.0)
                .build());

        String scrape = registry.scrape();

        assertThat(scrape)
                .contains("tokenpulse_window_server_running_mean{" + TAGS + "} 0.0")
                .contains("tokenpulse_window_server_ttft_mean_seconds{" + TAGS + "} 0.04")
                .contains("tokenpulse_window_requests_per_second{" + TAGS + "} 2.5")
                .contains("tokenpulse_window_ttft_seconds{" + QUANTILE_TAGS.formatted("0.99") + "} 0.25");
    }

    @Test
    void chunksCountedBeforeTheRunStartWasSeenAppearUnderTheRunsTags() {
        meters.onChunk(chunk(RUN, EPOCH_MS * MS));
        meters.onChunk(chunk(RUN, EPOCH_MS * MS));
        assertThat(registry.scrape()).doesNotContain("tokenpulse_chunk_events_total");

        meters.onRunEvent(started(RUN, 1.0));
        meters.onChunk(chunk(RUN, EPOCH_MS * MS));

        assertThat(registry.scrape()).contains("tokenpulse_chunk_events_total{" + TAGS + "} 3");
    }

    @Test
    void aBatchCountsItsEventsAndItsNewestArrivalIsTheFreshness() {
        clock.add(EPOCH_MS - clock.wallTime(), TimeUnit.MILLISECONDS);
        meters.onRunEvent(started(RUN, 1.0));
        meters.onChunk(chunk(RUN, (EPOCH_MS - 9_000) * MS));
        // events at -5 s, -4.5 s and -3 s
        meters.onChunkBatch(batch(RUN, (EPOCH_MS - 5_000) * MS, 20 * MS, 520 * MS, 2_020 * MS));
        meters.onChunkBatch(batch(RUN, (EPOCH_MS - 8_000) * MS)); // empty: counts nothing, older
        clock.add(Duration.ofMillis(500));

        assertThat(registry.scrape())
                .contains("tokenpulse_chunk_events_total{" + TAGS + "} 4")
                .contains("tokenpulse_aggregator_freshness_seconds 3.5");
    }

    @Test
    void theListenerOfManyShowsABatchToEach() {
        List<ChunkBatch> seen = new ArrayList<>();
        TopologyListener recording = new TopologyListener() {
            @Override
            public void onChunkBatch(ChunkBatch batch) {
                seen.add(batch);
            }
        };
        ChunkBatch batch = batch(RUN, EPOCH_MS * MS, 0L);

        TopologyListener.all(List.of(recording, meters, recording)).onChunkBatch(batch);

        assertThat(seen).containsExactly(batch, batch);
    }

    @Test
    void requestsOfARunWhoseStartWasNeverSeenAreTaggedUnknown() {
        meters.onRequestMetrics(success(RUN, 0, 100 * MS, 200 * MS, List.of(), 1));

        assertThat(registry.scrape())
                .contains(
                        "tokenpulse_request_ttft_seconds_count{backend=\"unknown\",model=\"unknown\",run_id=\"r1\"} 1");
    }

    @Test
    void freshnessIsNowMinusTheNewestChunkArrival() {
        clock.add(EPOCH_MS - clock.wallTime(), TimeUnit.MILLISECONDS);
        assertThat(registry.get("tokenpulse.aggregator.freshness").gauge().value())
                .isNaN();

        meters.onChunk(chunk(RUN, (EPOCH_MS - 2_000) * MS));
        meters.onChunk(chunk(RUN, (EPOCH_MS - 7_000) * MS)); // older: not newer than what was processed
        clock.add(Duration.ofMillis(3_500));

        assertThat(registry.scrape()).contains("tokenpulse_aggregator_freshness_seconds 5.5");
    }

    @Test
    void seriesOfAFinishedRunAreRemovedAfterTheRetentionAndStayRemoved() {
        meters.onRunEvent(started(RUN, 1.0));
        meters.onRunEvent(started("r2", 1.0));
        meters.onRequestMetrics(success(RUN, 0, 100 * MS, 200 * MS, List.of(MS), 2));
        meters.onWindowMetrics(window(RUN, EPOCH_MS, 1.0, 1.0));
        meters.onRunSummary(
                RunSummary.newBuilder(summaryTemplate()).setRunId(RUN).build());

        clock.add(Duration.ofMinutes(4));
        meters.removeExpiredRuns();
        assertThat(registry.scrape()).contains("run_id=\"r1\"").contains("tokenpulse_runs_active 1");

        clock.add(Duration.ofMinutes(1));
        meters.removeExpiredRuns();
        meters.onRequestMetrics(success(RUN, 1, 100 * MS, 200 * MS, List.of(), 1)); // late record
        String scrape = registry.scrape();

        assertThat(scrape)
                .doesNotContain("run_id=\"r1\"")
                .contains("run_id=\"r2\"")
                .contains("tokenpulse_runs_active 1");
    }

    @Test
    void deadLetteredRecordsAreSummedOverStreamThreadsPerSourceTopic() {
        Map<MetricName, Metric> metrics = Map.ofEntries(
                deadLetterMetric("chunks", "thread-1", 2),
                deadLetterMetric("chunks", "thread-2", 3),
                deadLetterMetric("runs", "thread-1", 1));
        meters.bindDeadLetters(() -> metrics, List.of("runs", "requests", "chunks"));

        assertThat(registry.scrape())
                .contains("tokenpulse_dead_lettered_records_total{topic=\"chunks\"} 5.0")
                .contains("tokenpulse_dead_lettered_records_total{topic=\"runs\"} 1.0")
                .contains("tokenpulse_dead_lettered_records_total{topic=\"requests\"} 0.0");
    }

    @Test
    void deadLetterCountsKeepFollowingTheStreamsMetricsAfterAGarbageCollection() throws InterruptedException {
        Map<MetricName, Metric> first = Map.ofEntries(deadLetterMetric("chunks", "thread-1", 1));
        Map<MetricName, Metric> later = Map.ofEntries(deadLetterMetric("chunks", "thread-1", 4));
        AtomicReference<Map<MetricName, Metric>> streamsMetrics = new AtomicReference<>(first);
        // a lambda nothing but the counters refers to, like streams::metrics in bindStreams
        meters.bindDeadLetters(() -> streamsMetrics.get(), List.of("chunks"));
        assertThat(registry.scrape()).contains("tokenpulse_dead_lettered_records_total{topic=\"chunks\"} 1.0");
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(20);
        }
        streamsMetrics.set(later);

        assertThat(registry.scrape()).contains("tokenpulse_dead_lettered_records_total{topic=\"chunks\"} 4.0");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "success                         | true  | 200 | none",
                "server said 503                 | false | 503 | http_503",
                "200 then the stream broke       | false | 200 | stream",
                "no status (connect, reset)      | false | 0   | no_response",
            })
    void failureReasonIsABoundedClassOfTheOutcome(String why, boolean success, int status, String reason) {
        RequestMetrics m = success ? success(RUN, 0, MS, 2 * MS, List.of(), 1) : failure(RUN, 0, status);
        m.setHttpStatus(status);

        assertThat(RunMeters.failureReason(m)).isEqualTo(reason);
    }

    @Test
    void anAgentRequestNotSentBecauseItsParentFailedHasItsOwnClass() {
        RequestMetrics m = failure(RUN, 0, 0);
        m.setError("parent_failed: not sent, a request it waits for failed");

        assertThat(RunMeters.failureReason(m)).isEqualTo("parent_failed");
    }

    // ---- records ----

    static RunEvent started(String run, double rate) {
        return new RunEvent(
                run,
                0,
                1,
                RunStarted.newBuilder()
                        .setScheduleStartEpochNs(EPOCH_MS * MS)
                        .setBackend("vllm")
                        .setModelId("m")
                        .setTokenizerId("t")
                        .setEndpointUrl("http://127.0.0.1:8000/v1/completions")
                        .setNumPrompts(3)
                        .setRequestRate(rate)
                        .setBurstiness(1.0)
                        .setMaxConcurrency(null)
                        .setPercentileMetrics("ttft,tpot,itl")
                        .setMetricPercentiles("99")
                        .setGoodput(null)
                        .setConfigJson("{}")
                        .setTokenpulseVersion("test")
                        .build());
    }

    static RequestMetrics success(String run, int index, long ttftNs, long e2elNs, List<Long> itlNs, int outputTokens) {
        return RequestMetrics.newBuilder()
                .setRunId(run)
                .setShardIndex(0)
                .setRequestIndex(index)
                .setRequestId("req-" + index)
                .setSuccess(true)
                .setHttpStatus(200)
                .setError("")
                .setPromptLen(100)
                .setOutputTokens(outputTokens)
                .setTtftNs(ttftNs)
                .setE2elNs(e2elNs)
                .setTpotNs(outputTokens > 1 ? (double) (e2elNs - ttftNs) / (outputTokens - 1) : null)
                .setTokenLatencyNs(outputTokens > 0 ? (double) e2elNs / outputTokens : null)
                .setQueueDelayNs(2 * MS)
                .setConnectNs(0)
                .setItlNs(itlNs)
                .setSentEpochNs(EPOCH_MS * MS)
                .setFinishedEpochNs(EPOCH_MS * MS + e2elNs)
                .build();
    }

    static RequestMetrics failure(String run, int index, int status) {
        return RequestMetrics.newBuilder()
                .setRunId(run)
                .setShardIndex(0)
                .setRequestIndex(index)
                .setRequestId("req-" + index)
                .setSuccess(false)
                .setHttpStatus(status)
                .setError("HTTP " + status + ": busy")
                .setPromptLen(100)
                .setOutputTokens(0)
                .setTtftNs(null)
                .setE2elNs(null)
                .setTpotNs(null)
                .setTokenLatencyNs(null)
                .setQueueDelayNs(0)
                .setConnectNs(0)
                .setItlNs(List.of())
                .setSentEpochNs(EPOCH_MS * MS)
                .setFinishedEpochNs(EPOCH_MS * MS + MS)
                .build();
    }

    static Chunk chunk(String run, long arrivedEpochNs) {
        return new Chunk(run, 0, 0, 0, 10 * MS, 0L, arrivedEpochNs, 1, 10);
    }

    /** A batch of events at {@code offsetsNs}, the first of them arrived at {@code firstArrivedEpochNs}. */
    static ChunkBatch batch(String run, long firstArrivedEpochNs, long... offsetsNs) {
        List<Long> offsets = LongStream.of(offsetsNs).boxed().toList();
        return new ChunkBatch(
                run,
                0,
                0,
                0,
                0L,
                firstArrivedEpochNs,
                offsets,
                Collections.nCopies(offsets.size(), 1),
                Collections.nCopies(offsets.size(), 10));
    }

    /** A window whose TTFT and queue delay are median 100 ms, P90 200 ms, P99 {@code p99Ms}, mean 120 ms. */
    static WindowMetrics window(String run, long startMs, double p99Ms, double requestsPerSecond) {
        List<WindowLatency> latencies = List.of("ttft", "tpot", "itl", "e2el", "queue_delay").stream()
                .map(metric -> new WindowLatency(metric, 10L, 120.0, 100.0, 200.0, p99Ms, 5.0))
                .toList();
        return WindowMetrics.newBuilder()
                .setRunId(run)
                .setWindowStartEpochMs(startMs)
                .setWindowEndEpochMs(startMs + 10_000)
                .setCompleted(25L)
                .setFailed(0L)
                .setInputTokens(2_500L)
                .setOutputTokens(250L)
                .setRequestThroughput(requestsPerSecond)
                .setOutputThroughput(requestsPerSecond * 10)
                .setTotalTokenThroughput(requestsPerSecond * 110)
                .setLatencies(latencies)
                .build();
    }

    static RunSummary summaryTemplate() {
        return RunSummary.newBuilder()
                .setRunId(RUN)
                .setDate("20240101-000000")
                .setBackend("vllm")
                .setModelId("m")
                .setTokenizerId("t")
                .setNumPrompts(1)
                .setRequestRate(1.0)
                .setBurstiness(1.0)
                .setMaxConcurrency(null)
                .setDurationNs(1)
                .setCompleted(1)
                .setFailed(0)
                .setTotalInputTokens(1)
                .setTotalOutputTokens(1)
                .setRequestThroughput(1)
                .setRequestGoodput(null)
                .setOutputThroughput(1)
                .setTotalTokenThroughput(1)
                .setMaxOutputTokensPerS(1)
                .setMaxConcurrentRequests(1)
                .setItlExact(true)
                .setMetrics(List.of())
                .setErrors(Map.of())
                .setShards(1)
                .setRecordsNotDelivered(0)
                .build();
    }

    static Map.Entry<MetricName, Metric> deadLetterMetric(String topic, String thread, double value) {
        MetricName name = new MetricName(
                "dead-lettered-records-total",
                "stream-tokenpulse-metrics",
                "",
                Map.of("thread-id", thread, "tokenpulse-id", topic));
        Metric metric = new Metric() {
            @Override
            public MetricName metricName() {
                return name;
            }

            @Override
            public Object metricValue() {
                return value;
            }
        };
        return Map.entry(name, metric);
    }
}
