package io.tokenpulse.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tokenpulse.aggregator.exposition.AggregatorMeters;
import io.tokenpulse.producer.health.ClientHealth;
import io.tokenpulse.producer.publish.PublishCounts;
import io.tokenpulse.schemas.Topics;
import io.tokenpulse.schemas.avro.Chunk;
import io.tokenpulse.schemas.avro.MetricSummary;
import io.tokenpulse.schemas.avro.PercentileValue;
import io.tokenpulse.schemas.avro.RequestMetrics;
import io.tokenpulse.schemas.avro.RunEvent;
import io.tokenpulse.schemas.avro.RunStarted;
import io.tokenpulse.schemas.avro.RunSummary;
import io.tokenpulse.schemas.avro.ServerSummary;
import io.tokenpulse.schemas.avro.WindowLatency;
import io.tokenpulse.schemas.avro.WindowMetrics;
import io.tokenpulse.schemas.registry.SchemaRegistryClient;
import io.tokenpulse.schemas.registry.SchemaRegistrySettings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The dashboards' static promises: uids, data source, and only metric names the code exports. */
class DashboardsTest {
    private static final long MS = 1_000_000L;
    private static final long EPOCH_NS = 1_700_000_000_000L * MS;

    @TempDir
    java.nio.file.Path stateDir;

    @Test
    void theThreeDashboardsAreThereUnderTheirDocumentedUids() {
        assertThat(DashboardFiles.load())
                .extracting(DashboardFiles.Dashboard::uid)
                .containsExactlyInAnyOrder("tokenpulse-live", "tokenpulse-summary", "tokenpulse-pipeline");
    }

    @Test
    void everyPanelHasQueriesAndEveryQueryUsesTheDataSourceVariable() {
        for (DashboardFiles.Dashboard dashboard : DashboardFiles.load()) {
            for (var panel : dashboard.panels()) {
                if (panel.path("type").asText().equals("row")) {
                    continue;
                }
                String where = dashboard.uid() + " / " + panel.path("title").asText();
                assertThat(panel.path("targets")).as(where + ": targets").isNotEmpty();
                assertThat(panel.path("datasource").path("uid").asText())
                        .as(where)
                        .isEqualTo("${datasource}");
                panel.path("targets").forEach(target -> {
                    assertThat(target.path("datasource").path("uid").asText())
                            .as(where)
                            .isEqualTo("${datasource}");
                    assertThat(target.path("expr").asText()).as(where).isNotBlank();
                });
            }
        }
    }

    @Test
    void everyMetricTheDashboardsQueryIsOneTheCodeExports() {
        Set<String> exported = exportedMetricNames();
        Map<String, Set<String>> unknown = new TreeMap<>();
        for (DashboardFiles.Dashboard dashboard : DashboardFiles.load()) {
            for (DashboardFiles.Query query : dashboard.queries()) {
                Set<String> names = DashboardFiles.metricNames(query.expr());
                assertThat(names)
                        .as(query.where() + " selects no metric: " + query.expr())
                        .isNotEmpty();
                names.stream()
                        .filter(n -> !exported.contains(n))
                        .forEach(n ->
                                unknown.computeIfAbsent(n, k -> new TreeSet<>()).add(query.where()));
            }
            for (DashboardFiles.Variable variable : dashboard.variables()) {
                DashboardFiles.metricNames(variable.query()).stream()
                        .filter(n -> !exported.contains(n))
                        .forEach(n -> unknown.computeIfAbsent(n, k -> new TreeSet<>())
                                .add(dashboard.uid() + " $" + variable.name()));
            }
        }
        assertThat(unknown)
                .as("metric names used in dashboards but not exported (name -> where)")
                .isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "plain selector               | max(tokenpulse_aggregator_freshness_seconds)                                          | tokenpulse_aggregator_freshness_seconds",
                "matchers, range and by       | sum by (le) (rate(a_bucket{run_id=\"$run_id\", x=~\"b.*\"}[$__rate_interval]))          | a_bucket",
                "two metrics in arithmetic    | sum(rate(a_total{x=\"1\"}[5m])) / sum(rate(b_total[5m])) * 1000                         | a_total;b_total",
                "label_replace strings        | label_replace(last_over_time(m{q!=\"0.5\"}[1h]), \"stat\", \"quantile $1\", \"q\", \"(.*)\") | m",
                "set operator keyword         | a or on (run_id) b                                                                   | a;b",
                "variable query               | label_values(m{run_id=\"$run_id\"}, model)                                              | m",
            })
    void metricNamesAreTheSelectorsOfAnExpression(String why, String expr, String names) {
        assertThat(DashboardFiles.metricNames(expr)).containsExactlyInAnyOrder(names.split(";"));
    }

    /**
     * Every series name a bench/aggregate process exports: the aggregator's meters fed one run of
     * each record kind (goodput on), the load generator's client health, and Kafka Streams' own
     * meters from a client that is built but never started.
     */
    private Set<String> exportedMetricNames() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        Topics topics = Topics.create(new SchemaRegistryClient(SchemaRegistrySettings.of("http://127.0.0.1:1")), true);
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(topics.chunks().name());
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "tokenpulse-aggregator");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        try (AggregatorMeters meters = AggregatorMeters.register(registry, Duration.ofMinutes(5));
                KafkaStreams streams = new KafkaStreams(builder.build(), props);
                ClientHealth health = ClientHealth.register(
                        registry, "r1", "m", "vllm", 0, () -> new PublishCounts(1, 1, Map.of(), 0))) {
            meters.bindStreams(streams, topics);
            health.requestSent(0, MS);
            meters.onRunEvent(new RunEvent(
                    "r1",
                    0,
                    1,
                    RunStarted.newBuilder()
                            .setScheduleStartEpochNs(EPOCH_NS)
                            .setBackend("vllm")
                            .setModelId("m")
                            .setTokenizerId("m")
                            .setEndpointUrl("http://127.0.0.1:1/v1/completions")
                            .setNumPrompts(2)
                            .setRequestRate(1.0)
                            .setBurstiness(1.0)
                            .setPercentileMetrics("ttft,tpot,itl,e2el")
                            .setMetricPercentiles("99")
                            .setGoodput("ttft:500")
                            .setConfigJson("{}")
                            .setTokenpulseVersion("test")
                            .build()));
            meters.onChunk(new Chunk("r1", 0, 0, 0, 10 * MS, 0L, EPOCH_NS, 1, 10));
            meters.onRequestMetrics(request(true, 200));
            meters.onRequestMetrics(request(false, 503));
            meters.onWindowMetrics(WindowMetrics.newBuilder()
                    .setRunId("r1")
                    .setWindowStartEpochMs(EPOCH_NS / MS)
                    .setWindowEndEpochMs(EPOCH_NS / MS + 10_000)
                    .setCompleted(1L)
                    .setFailed(1L)
                    .setInputTokens(3L)
                    .setOutputTokens(2L)
                    .setRequestThroughput(0.1)
                    .setOutputThroughput(0.2)
                    .setTotalTokenThroughput(0.5)
                    .setLatencies(List.of("ttft", "tpot", "itl", "e2el", "queue_delay", "ttfo").stream()
                            .map(m -> new WindowLatency(m, 1L, 1.0, 1.0, 1.0, 1.0, 0.0))
                            .toList())
                    .setServerMeanRunning(1.0)
                    .setServerMaxRunning(1.0)
                    .setServerMeanWaiting(0.0)
                    .setServerMaxWaiting(0.0)
                    .setServerPeakKvCacheUsage(0.5)
                    .setServerPrefixCacheHitRate(0.0)
                    .setServerPreemptions(0.0)
                    .setServerMeanTtftMs(1.0)
                    .setServerMedianTtftMs(1.0)
                    .setServerP99TtftMs(1.0)
                    .setServerMeanItlMs(1.0)
                    .setServerMedianItlMs(1.0)
                    .setServerP99ItlMs(1.0)
                    .build());
            meters.onRunSummary(RunSummary.newBuilder()
                    .setRunId("r1")
                    .setDate("20240101-000000")
                    .setBackend("vllm")
                    .setModelId("m")
                    .setTokenizerId("m")
                    .setNumPrompts(2)
                    .setRequestRate(1.0)
                    .setBurstiness(1.0)
                    .setMaxConcurrency(null)
                    .setDurationNs(1_000 * MS)
                    .setCompleted(1)
                    .setFailed(1)
                    .setTotalInputTokens(3)
                    .setTotalOutputTokens(2)
                    .setRequestThroughput(1)
                    .setRequestGoodput(1.0)
                    .setOutputThroughput(2)
                    .setTotalTokenThroughput(5)
                    .setMaxOutputTokensPerS(2)
                    .setMaxConcurrentRequests(1)
                    .setItlExact(true)
                    .setMetrics(List.of(
                            new MetricSummary("ttft", 1L, 50.0, 50.0, 0.0, List.of(new PercentileValue(99.0, 50.0)))))
                    .setErrors(Map.of("HTTP 503", 1L))
                    .setShards(1)
                    .setRecordsNotDelivered(0)
                    .setServer(ServerSummary.newBuilder()
                            .setServerMeanRunning(1.0)
                            .setServerMaxWaiting(0.0)
                            .setServerPeakKvCacheUsage(0.5)
                            .setServerPrefixCacheHitRate(0.0)
                            .setServerPreemptions(0.0)
                            .setServerTtftGapMs(1.0)
                            .build())
                    .build());
            return registry.scrape()
                    .lines()
                    .filter(line -> !line.startsWith("#") && !line.isBlank())
                    .map(line -> line.split("[{ ]", 2)[0])
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }

    private static RequestMetrics request(boolean success, int status) {
        return RequestMetrics.newBuilder()
                .setRunId("r1")
                .setShardIndex(0)
                .setRequestIndex(success ? 0 : 1)
                .setRequestId("req")
                .setSuccess(success)
                .setHttpStatus(status)
                .setError(success ? "" : "HTTP 503")
                .setPromptLen(3)
                .setOutputTokens(success ? 2 : 0)
                .setTtftNs(success ? 50 * MS : null)
                .setE2elNs(success ? 70 * MS : null)
                .setTpotNs(success ? 20.0 * MS : null)
                .setTokenLatencyNs(success ? 35.0 * MS : null)
                .setQueueDelayNs(MS)
                .setConnectNs(0)
                .setItlNs(success ? List.of(20 * MS) : List.of())
                .setSentEpochNs(EPOCH_NS)
                .setFinishedEpochNs(EPOCH_NS + 70 * MS)
                // a reasoning model's request, so the TTFO meters exist too
                .setTtfoNs(success ? 60 * MS : null)
                .setReasoningEvents(success ? 1 : 0)
                // a session's turn, so the TTFT-by-turn meter exists too
                .setSessionId("r1-session-0")
                .setTurnIndex(0)
                .build();
    }
}
