package io.tokenpulse.producer.scrape;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tokenpulse.simulator.SimulatorConfig;
import io.tokenpulse.simulator.SimulatorServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class ServerScraperTest {

    private final HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);

    ServerScraperTest() throws IOException {}

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    @Timeout(30)
    void downSlowHtmlAndGarbageEndpointsAreCountedAndTheGoodOneStillScraped() throws Exception {
        serve("/good", "text/plain; version=0.0.4", "# TYPE up gauge\nup 1\n", 0);
        serve("/html", "text/html", "<html><body>login</body></html>", 0);
        serve("/garbage", "text/plain", "this is not { prometheus\n", 0);
        serve("/slow", "text/plain", "up 1\n", 1_200); // beyond the 1 s bound
        server.setExecutor(Executors.newCachedThreadPool()); // the slow one blocks no other
        server.start();
        int deadPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            deadPort = socket.getLocalPort();
        }
        String base = "http://127.0.0.1:" + server.getAddress().getPort();
        List<URI> sources = List.of(
                URI.create(base + "/good"),
                URI.create(base + "/html"),
                URI.create(base + "/garbage"),
                URI.create(base + "/slow"),
                URI.create("http://127.0.0.1:" + deadPort + "/metrics"));
        Map<URI, List<Series>> scraped = new ConcurrentHashMap<>();
        List<URI> order = new CopyOnWriteArrayList<>();
        SimpleMeterRegistry meters = new SimpleMeterRegistry();

        ServerScraper scraper = ServerScraper.start(
                sources,
                Duration.ofMillis(100),
                false,
                (source, epochNs, series) -> {
                    scraped.put(source, series);
                    order.add(source);
                },
                meters);
        // the first round is done when start returns: its cold start does not overlap the load
        assertThat(scraper.succeeded() + scraper.failed()).isEqualTo(sources.size());
        while (scraper.failed() < 4) {
            Thread.sleep(20); // polls until a round of the four bad endpoints failed
        }
        int beforeClose = order.size();
        scraper.close();
        // one last scrape, and none after: the shard's RunFinished announces what was published by then
        assertThat(order).hasSizeGreaterThan(beforeClose);
        int afterClose = order.size();
        scraper.close();
        assertThat(order).hasSize(afterClose);

        assertThat(scraped).containsOnlyKeys(URI.create(base + "/good"));
        assertThat(scraped.get(URI.create(base + "/good")))
                .containsExactly(new Series("up", "gauge", Map.of(), 1, null, List.of()));
        double failed = meters.get("tokenpulse.client.server.scrapes")
                .tag("outcome", "failed")
                .counter()
                .count();
        double ok = meters.get("tokenpulse.client.server.scrapes")
                .tag("outcome", "ok")
                .counter()
                .count();
        assertThat(failed).isGreaterThanOrEqualTo(4);
        assertThat(ok).isEqualTo(order.size()).isGreaterThanOrEqualTo(1);
    }

    @Test
    @Timeout(30)
    void aSelfSignedHttpsEndpointIsScrapedOnlyWithInsecure() throws Exception {
        try (SimulatorServer simulator =
                SimulatorServer.start(SimulatorConfig.deterministic(Duration.ofMillis(1), Duration.ofMillis(1))
                        .withTls(true))) {
            List<URI> sources = List.of(simulator.baseUri().resolve("/metrics"));
            for (boolean insecure : new boolean[] {false, true}) {
                List<Series> scraped = new CopyOnWriteArrayList<>();
                try (ServerScraper scraper = ServerScraper.start(
                        sources,
                        Duration.ofMillis(100),
                        insecure,
                        (source, epochNs, series) -> scraped.addAll(series),
                        new SimpleMeterRegistry())) {
                    while (scraper.succeeded() + scraper.failed() == 0) {
                        Thread.sleep(20);
                    }
                    assertThat(scraper.succeeded() > 0)
                            .as("insecure " + insecure)
                            .isEqualTo(insecure);
                }
                assertThat(scraped.stream().anyMatch(s -> s.name().equals("vllm:num_requests_running")))
                        .isEqualTo(insecure);
            }
        }
    }

    private void serve(String path, String contentType, String body, long delayMs) {
        server.createContext(path, exchange -> {
            try {
                Thread.sleep(delayMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", contentType);
            exchange.sendResponseHeaders(200, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            } catch (IOException e) {
                // the scraper gave up on the slow answer
            }
        });
    }
}
