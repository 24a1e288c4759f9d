package io.tokenpulse.aggregator.exposition;

import static io.tokenpulse.aggregator.exposition.AggregatorMetersTest.EPOCH_MS;
import static io.tokenpulse.aggregator.exposition.AggregatorMetersTest.MS;
import static io.tokenpulse.aggregator.exposition.AggregatorMetersTest.TAGS;
import static io.tokenpulse.aggregator.exposition.AggregatorMetersTest.batch;
import static io.tokenpulse.aggregator.exposition.AggregatorMetersTest.chunk;
import static io.tokenpulse.aggregator.exposition.AggregatorMetersTest.started;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MockClock;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.tokenpulse.aggregator.topology.AggregatorTopology;
import io.tokenpulse.aggregator.topology.StreamsSettings;
import io.tokenpulse.schemas.Topics;
import io.tokenpulse.schemas.registry.InMemorySchemaRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real topology hands its records to the meters, and its dead-letter metric reaches Prometheus. */
class TopologyMetersTest {
    @TempDir
    Path stateDir;

    @Test
    void theTopologyFeedsRunChunkAndDeadLetterMeters() {
        Topics topics = Topics.create(new InMemorySchemaRegistry(), true);
        StreamsSettings settings = StreamsSettings.defaults("unused:9092").withStateDir(stateDir);
        MockClock clock = new MockClock();
        PrometheusMeterRegistry registry =
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT, new PrometheusRegistry(), clock);
        try (AggregatorMeters meters = new AggregatorMeters(registry, Duration.ofMinutes(5), clock, null);
                TopologyTestDriver driver = new TopologyTestDriver(
                        AggregatorTopology.build(topics, settings, meters), settings.toProperties(new Properties()))) {
            meters.bindDeadLetters(driver::metrics, AggregatorTopology.deadLetterSources(topics));
            var runs = driver.createInputTopic(
                    topics.runs().name(),
                    new StringSerializer(),
                    topics.runs().valueSerde().serializer());
            var chunks = driver.createInputTopic(
                    topics.chunks().name(),
                    new StringSerializer(),
                    topics.chunks().valueSerde().serializer());
            var rawChunks =
                    driver.createInputTopic(topics.chunks().name(), new StringSerializer(), new ByteArraySerializer());
            var batches = driver.createInputTopic(
                    topics.chunkBatches().name(),
                    new StringSerializer(),
                    topics.chunkBatches().valueSerde().serializer());
            var rawBatches = driver.createInputTopic(
                    topics.chunkBatches().name(), new StringSerializer(), new ByteArraySerializer());

            runs.pipeInput("r1", started("r1", 4.0), EPOCH_MS);
            chunks.pipeInput("r1/0", chunk("r1", (EPOCH_MS + 100) * MS), EPOCH_MS + 100);
            rawChunks.pipeInput("r1/1", new byte[] {1, 2, 3}, EPOCH_MS + 200);
            // three events, the newest arrived at +600 ms
            batches.pipeInput("r1/2", batch("r1", (EPOCH_MS + 200) * MS, 0, 100 * MS, 400 * MS), EPOCH_MS + 700);
            rawBatches.pipeInput("r1/3", new byte[] {1, 2, 3}, EPOCH_MS + 800);
            clock.add(EPOCH_MS + 1_100 - clock.wallTime(), TimeUnit.MILLISECONDS);

            assertThat(registry.scrape())
                    .contains("tokenpulse_runs_active 1")
                    .contains("tokenpulse_run_configured_requests_per_second{" + TAGS + "} 4.0")
                    .contains("tokenpulse_chunk_events_total{" + TAGS + "} 4")
                    .contains("tokenpulse_aggregator_freshness_seconds 0.5")
                    .contains("tokenpulse_dead_lettered_records_total{topic=\"tokenpulse.chunks\"} 1.0")
                    .contains("tokenpulse_dead_lettered_records_total{topic=\"tokenpulse.chunk-batches\"} 1.0")
                    .contains("tokenpulse_dead_lettered_records_total{topic=\"tokenpulse.runs\"} 0.0")
                    // every decoded topic has its counter from the start, so a dashboard reads 0, not "No data"
                    .contains("tokenpulse_dead_lettered_records_total{topic=\"tokenpulse.server-metrics\"} 0.0");
        }
    }
}
