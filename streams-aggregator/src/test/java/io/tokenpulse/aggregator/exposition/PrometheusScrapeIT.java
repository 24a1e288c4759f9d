package io.tokenpulse.aggregator.exposition;

import static io.tokenpulse.aggregator.exposition.AggregatorMetersTest.MS;
import static io.tokenpulse.aggregator.exposition.AggregatorMetersTest.started;
import static io.tokenpulse.aggregator.exposition.AggregatorMetersTest.success;
import static io.tokenpulse.aggregator.exposition.AggregatorMetersTest.window;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.File;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Debian's real Prometheus (2.42, installed by scripts/test) scrapes a {@link MetricsEndpoint}
 * and answers queries over the series dashboards use.
 */
class PrometheusScrapeIT {
    private static final Duration SCRAPE_TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    final HttpClient http = HttpClient.newHttpClient();
    final ObjectMapper json = new ObjectMapper();
    private int webPort;

    @Test
    void prometheusScrapesTheEndpointAndQueriesHistogramsCountersAndWindowGauges() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (AggregatorMeters meters =
                        AggregatorMeters.register(registry, AggregatorMeters.DEFAULT_FINISHED_RUN_RETENTION);
                MetricsEndpoint endpoint = MetricsEndpoint.start(registry, MetricsEndpoint.DEFAULT_HOST, 0)) {
            meters.onRunEvent(started("r1", 4.0));
            for (int i = 1; i <= 5; i++) { // TTFT 100, 200, ..., 500 ms
                meters.onRequestMetrics(success("r1", i, 100L * i * MS, 1_000L * i * MS, List.of(20 * MS), 3));
            }
            meters.onWindowMetrics(window("r1", System.currentTimeMillis(), 250.0, 2.5));

            Process prometheus = startPrometheus(endpoint.port());
            try {
                URI api = URI.create("http://127.0.0.1:" + webPort + "/api/v1/query");
                JsonNode count = awaitSeries(api, "tokenpulse_request_ttft_seconds_count{run_id=\"r1\"}", prometheus);

                assertThat(count.get(0).get("metric").get("model").asText()).isEqualTo("m");
                assertThat(value(count)).isEqualTo(5.0);
                assertThat(value(query(api, "up{job=\"tokenpulse\"}"))).isEqualTo(1.0);
                assertThat(value(query(api, "sum(tokenpulse_requests_total{status=\"success\"})")))
                        .isEqualTo(5.0);
                assertThat(value(query(api, "tokenpulse_window_ttft_seconds{quantile=\"0.99\"}")))
                        .isEqualTo(0.25);
                assertThat(
                                value(
                                        query(
                                                api,
                                                "histogram_quantile(0.5, sum by (le) (tokenpulse_request_ttft_seconds_bucket{run_id=\"r1\"}))")))
                        .isBetween(0.2, 0.4);
            } finally {
                stop(prometheus);
            }
        }
    }

    private Process startPrometheus(int targetPort) throws Exception {
        webPort = freePort();
        Path config = dir.resolve("prometheus.yml");
        Files.writeString(config, """
                global:
                  scrape_interval: 1s
                scrape_configs:
                  - job_name: tokenpulse
                    static_configs:
                      - targets: ["127.0.0.1:%d"]
                """.formatted(targetPort));
        File log = dir.resolve("prometheus.log").toFile();
        try {
            return new ProcessBuilder(
                            "prometheus",
                            "--config.file=" + config,
                            "--storage.tsdb.path=" + dir.resolve("data"),
                            "--web.listen-address=127.0.0.1:" + webPort)
                    .redirectErrorStream(true)
                    .redirectOutput(log)
                    .start();
        } catch (java.io.IOException e) {
            throw new AssertionError(
                    "Debian's prometheus is needed: apt-get install prometheus (scripts/test does)", e);
        }
    }

    private JsonNode awaitSeries(URI api, String promql, Process prometheus) throws Exception {
        long deadline = System.nanoTime() + SCRAPE_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!prometheus.isAlive()) {
                fail("prometheus exited: " + Files.readString(dir.resolve("prometheus.log")));
            }
            try {
                JsonNode result = query(api, promql);
                if (!result.isEmpty()) {
                    return result;
                }
            } catch (java.io.IOException notListeningYet) {
                // Prometheus is still starting
            }
            Thread.sleep(250);
        }
        return fail("no " + promql + " after " + SCRAPE_TIMEOUT + "; log: "
                + Files.readString(dir.resolve("prometheus.log")));
    }

    private JsonNode query(URI api, String promql) throws Exception {
        URI uri = URI.create(api + "?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
        HttpResponse<String> response =
                http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
        JsonNode body = json.readTree(response.body());
        assertThat(body.get("status").asText())
                .as(promql + ": " + response.body())
                .isEqualTo("success");
        return body.get("data").get("result");
    }

    private static double value(JsonNode result) {
        assertThat(result).hasSize(1);
        return Double.parseDouble(result.get(0).get("value").get(1).asText());
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static void stop(Process process) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
