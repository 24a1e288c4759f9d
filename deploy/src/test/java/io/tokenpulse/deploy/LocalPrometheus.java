package io.tokenpulse.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
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
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Debian's {@code prometheus} (2.42; scripts/test installs it) on a free port of 127.0.0.1,
 * scraping one target every second, with its HTTP API for the tests.
 */
final class LocalPrometheus implements AutoCloseable {
    static final Duration SCRAPE_INTERVAL = Duration.ofSeconds(1);

    private final Process process;
    private final Path log;
    private final URI api;
    private final HttpClient http = HttpClient.newHttpClient();
    private final ObjectMapper json = new ObjectMapper();

    private LocalPrometheus(Process process, Path log, URI api) {
        this.process = process;
        this.log = log;
        this.api = api;
    }

    /** Starts Prometheus with its config and data in {@code dir}, scraping 127.0.0.1:{@code targetPort}/metrics. */
    static LocalPrometheus start(Path dir, int targetPort) throws IOException, InterruptedException {
        int webPort = freePort();
        Path config = dir.resolve("prometheus.yml");
        Files.writeString(config, """
        global:
          scrape_interval: %ds
        scrape_configs:
          - job_name: tokenpulse
            static_configs:
              - targets: ["127.0.0.1:%d"]
        """.formatted(SCRAPE_INTERVAL.toSeconds(), targetPort));
        Path log = dir.resolve("prometheus.log");
        Process process;
        try {
            process = new ProcessBuilder(
                            "prometheus",
                            "--config.file=" + config,
                            "--storage.tsdb.path=" + dir.resolve("data"),
                            "--web.listen-address=127.0.0.1:" + webPort)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
        } catch (IOException e) {
            throw new IOException("Debian's prometheus is needed: apt-get install prometheus (scripts/test does)", e);
        }
        LocalPrometheus prometheus =
                new LocalPrometheus(process, log, URI.create("http://127.0.0.1:" + webPort + "/api/v1/"));
        prometheus.awaitReady(Duration.ofSeconds(30));
        return prometheus;
    }

    private void awaitReady(Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("prometheus exited: " + log());
            }
            try {
                get("status/buildinfo", Map.of());
                return;
            } catch (IOException notListeningYet) {
                Thread.sleep(200);
            }
        }
        throw new IllegalStateException("prometheus not ready after " + timeout + ": " + log());
    }

    /** {@code /api/v1/query} at {@code timeS} (Unix seconds): the result array. */
    JsonNode query(String promql, double timeS) throws IOException, InterruptedException {
        return get("query", Map.of("query", promql, "time", Double.toString(timeS)))
                .path("result");
    }

    /** {@code /api/v1/query_range}, as Grafana runs a panel's range query: the result array of series. */
    JsonNode queryRange(String promql, double startS, double endS, Duration step)
            throws IOException, InterruptedException {
        return get(
                        "query_range",
                        Map.of(
                                "query",
                                promql,
                                "start",
                                Double.toString(startS),
                                "end",
                                Double.toString(endS),
                                "step",
                                step.toSeconds() + "s"))
                .path("result");
    }

    /** {@code /api/v1/series}: the label sets of the series {@code selector} matched in the range. */
    JsonNode series(String selector, double startS, double endS) throws IOException, InterruptedException {
        return get(
                "series", Map.of("match[]", selector, "start", Double.toString(startS), "end", Double.toString(endS)));
    }

    /** The API's {@code data}; an API error (bad PromQL, ...) becomes an exception with Prometheus' message. */
    private JsonNode get(String endpoint, Map<String, String> params) throws IOException, InterruptedException {
        String queryString = new LinkedHashMap<>(params)
                .entrySet().stream()
                        .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                        .collect(Collectors.joining("&"));
        URI uri = api.resolve(endpoint + (queryString.isEmpty() ? "" : "?" + queryString));
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
        JsonNode body = json.readTree(response.body());
        if (!"success".equals(body.path("status").asText())) {
            throw new PromQlError(
                    body.path("errorType").asText() + ": " + body.path("error").asText());
        }
        return body.path("data");
    }

    String log() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** Prometheus answered with an error (status "error"). */
    static final class PromQlError extends IOException {
        PromQlError(String message) {
            super(message);
        }
    }
}
