package io.tokenpulse.aggregator.exposition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MetricsEndpointTest {
    final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    final HttpClient http = HttpClient.newHttpClient();
    final MetricsEndpoint endpoint = MetricsEndpoint.start(registry, MetricsEndpoint.DEFAULT_HOST, 0);

    @AfterEach
    void close() {
        endpoint.close();
    }

    @Test
    void servesTheCallersRegistryAsPrometheusTextOnLoopback() throws Exception {
        registry.counter("tokenpulse.requests", "status", "success").increment(3);

        HttpResponse<String> response = get(endpoint.uri(), "*/*");

        assertThat(endpoint.uri().toString()).isEqualTo("http://127.0.0.1:" + endpoint.port() + "/metrics");
        assertThat(endpoint.port()).isPositive();
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue(MetricsEndpoint.TEXT_004);
        assertThat(response.body()).contains("tokenpulse_requests_total{status=\"success\"} 3.0");
    }

    @Test
    void servesOpenMetricsWhenTheScraperAsksForIt() throws Exception {
        registry.counter("tokenpulse.requests", "status", "success").increment();
        // what Prometheus 2.42 sends
        String accept = "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,"
                + "text/plain;version=0.0.4;q=0.5,*/*;q=0.1";

        HttpResponse<String> response = get(endpoint.uri(), accept);

        assertThat(response.headers().firstValue("Content-Type")).hasValue(MetricsEndpoint.OPEN_METRICS);
        assertThat(response.body())
                .contains("tokenpulse_requests_total{status=\"success\"} 1.0")
                .endsWith("# EOF\n");
    }

    @Test
    void awaitNextScrapeReturnsAtOnceWhenNothingEverScraped() throws Exception {
        long startNs = System.nanoTime();

        assertThat(endpoint.awaitNextScrape(Duration.ofSeconds(30))).isFalse();
        assertThat(System.nanoTime() - startNs).isLessThan(Duration.ofSeconds(1).toNanos());
    }

    @Test
    void awaitNextScrapeWaitsForAScrapeThatStartsAfterTheCall() throws Exception {
        get(endpoint.uri(), "*/*");
        CompletableFuture<HttpResponse<String>> later = CompletableFuture.supplyAsync(() -> {
            try {
                Thread.sleep(300);
                return get(endpoint.uri(), "*/*");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        long startNs = System.nanoTime();

        assertThat(endpoint.awaitNextScrape(Duration.ofSeconds(30))).isTrue();
        assertThat(System.nanoTime() - startNs)
                .isGreaterThanOrEqualTo(Duration.ofMillis(250).toNanos());
        assertThat(later.get().statusCode()).isEqualTo(200);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "one scrape seen: bounded by max               | 0   | 500 | 500",
                "scrapes 100 ms apart: two intervals           | 100 | 5000 | 200",
                "scrapes 10 s apart, max lower: max            | 10000 | 300 | 300",
            })
    void awaitNextScrapeGivesUpAfterTwoScrapeIntervalsOrMax(String why, long intervalMs, long maxMs, long waitedMs)
            throws Exception {
        MetricsEndpoint.Scrapes scrapes = new MetricsEndpoint.Scrapes();
        long nowNs = System.nanoTime();
        scrapes.served(scrapes.started(nowNs - intervalMs * 1_000_000));
        if (intervalMs > 0) {
            scrapes.served(scrapes.started(nowNs));
        }
        long startNs = System.nanoTime();

        assertThat(scrapes.awaitNext(Duration.ofMillis(maxMs))).isFalse();
        assertThat((System.nanoTime() - startNs) / 1_000_000).isBetween(waitedMs, waitedMs + 1_000);
    }

    @Test
    void otherPathsAreNotFound() throws Exception {
        assertThat(get(endpoint.uri().resolve("/"), "*/*").statusCode()).isEqualTo(404);
        assertThat(get(endpoint.uri().resolve("/metricsx"), "*/*").statusCode()).isEqualTo(404);
    }

    @Test
    void aTakenPortIsAOneLineErrorNamingThePortAndTheFlag() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();

            assertThatThrownBy(() -> MetricsEndpoint.start(registry, "127.0.0.1", port))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("metrics port " + port + " on 127.0.0.1 is already in use: choose another with "
                            + "--metrics-port (0 picks a free port)");
        }
    }

    private HttpResponse<String> get(URI uri, String accept) throws Exception {
        return http.send(
                HttpRequest.newBuilder(uri).header("Accept", accept).build(), HttpResponse.BodyHandlers.ofString());
    }
}
