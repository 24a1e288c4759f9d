package io.tokenpulse.producer.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tokenpulse.producer.publish.DeliveryFailure;
import io.tokenpulse.producer.publish.PublishCounts;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ClientHealthTest {
    static final String TAGS = "backend=\"vllm\",model=\"m\",run_id=\"r1\",shard=\"0\"";
    static final long MS = 1_000_000L;

    final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    final AtomicReference<PublishCounts> counts = new AtomicReference<>(new PublishCounts(0, 0, Map.of(), 0));
    final ClientHealth health = ClientHealth.register(registry, "r1", "m", "vllm", 0, counts::get);

    @Test
    void scheduleLagAndInFlightFollowSendsAndFinishes() {
        health.requestSent(1_000 * MS, 1_002 * MS);
        health.requestSent(2_000 * MS, 2_250 * MS);
        health.requestFinished();

        assertThat(registry.scrape())
                .contains("# TYPE tokenpulse_client_schedule_lag_seconds histogram")
                .contains("tokenpulse_client_schedule_lag_seconds_count{" + TAGS + "} 2")
                .contains("tokenpulse_client_schedule_lag_seconds_sum{" + TAGS + "} 0.252")
                .contains("tokenpulse_client_schedule_lag_seconds_max{" + TAGS + "} 0.25")
                .contains("tokenpulse_client_requests_in_flight{" + TAGS + "} 1")
                .contains("tokenpulse_client_requests_sent_total{" + TAGS + "} 2");
    }

    @Test
    void connectionsAndChunksAreCounted() {
        health.connectionOpened(3 * MS);
        health.chunkPublished();
        health.chunkPublished();

        assertThat(registry.scrape())
                .contains("tokenpulse_client_connections_opened_total{" + TAGS + "} 1")
                .contains("tokenpulse_client_connect_seconds_sum{" + TAGS + "} 0.003")
                .contains("tokenpulse_client_chunk_events_total{" + TAGS + "} 2");
    }

    @Test
    void publisherMetersKeepReadingAfterAGarbageCollection() throws InterruptedException {
        AtomicReference<PublishCounts> live = new AtomicReference<>(new PublishCounts(5, 4, Map.of(), 1));
        PrometheusMeterRegistry own = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        // a lambda nothing but the meters refers to, like publisher::counts in LoadGenerator
        try (ClientHealth shard = ClientHealth.register(own, "r1", "m", "vllm", 0, () -> live.get())) {
            for (int i = 0; i < 3; i++) {
                System.gc();
                Thread.sleep(20);
            }
            live.set(new PublishCounts(9, 7, Map.of(), 2));

            assertThat(own.scrape())
                    .contains("tokenpulse_client_records_published_total{" + TAGS + "} 9")
                    .contains("tokenpulse_client_records_queued{" + TAGS + "} 2")
                    .contains("tokenpulse_client_records_not_delivered{" + TAGS + "} 2");
            assertThat(shard).isNotNull();
        }
    }

    @Test
    void publisherCountsAreReadAtEachScrape() {
        counts.set(new PublishCounts(10, 6, Map.of(DeliveryFailure.BUFFER_FULL, 3L), 1, 1));

        assertThat(registry.scrape())
                .contains("tokenpulse_client_records_published_total{" + TAGS + "} 10")
                .contains("tokenpulse_client_records_delivered_total{" + TAGS + "} 6")
                .contains("tokenpulse_client_records_failed_total{backend=\"vllm\",model=\"m\",reason=\"buffer_full\","
                        + "run_id=\"r1\",shard=\"0\"} 3")
                .contains("tokenpulse_client_records_failed_total{backend=\"vllm\",model=\"m\",reason=\"timeout\","
                        + "run_id=\"r1\",shard=\"0\"} 0")
                .contains("tokenpulse_client_records_queued{" + TAGS + "} 1")
                .contains("tokenpulse_client_records_spooled{" + TAGS + "} 1")
                .contains("tokenpulse_client_records_not_delivered{" + TAGS + "} 4");
    }

    @Test
    void closeRemovesTheShardsSeries() {
        health.requestSent(0, MS);
        health.close();

        assertThat(registry.scrape()).doesNotContain("run_id=\"r1\"");
    }
}
