package io.tokenpulse.aggregator.exposition;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tokenpulse.schemas.logging.RepeatedWarning;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves a {@link PrometheusMeterRegistry} at {@code http://<host>:<port>/metrics} for Prometheus
 * to scrape. The caller owns the registry, so one endpoint can serve the meters of several parts
 * of a process (the aggregator's and the load generator's in the one-command mode).
 *
 * <p>Format: OpenMetrics 1.0.0 when the scraper asks for it (Prometheus 2.x does), else the
 * Prometheus text format 0.0.4. The JDK's own HTTP server is enough for one scrape every few
 * seconds and adds no dependency. Scrapes run one at a time on a daemon thread.
 */
public final class MetricsEndpoint implements AutoCloseable {
    /** The port OpenTelemetry and many exporters use for Prometheus metrics. */
    public static final int DEFAULT_PORT = 9464;

    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final String PATH = "/metrics";

    static final String TEXT_004 = "text/plain; version=0.0.4; charset=utf-8";
    static final String OPEN_METRICS = "application/openmetrics-text; version=1.0.0; charset=utf-8";

    private static final Logger LOG = LoggerFactory.getLogger(MetricsEndpoint.class);
    /** A scraper that keeps failing (say, it hangs up early) must not fill the log. */
    private static final RepeatedWarning FAILED_SCRAPES = new RepeatedWarning(LOG, "failed scrapes");

    private final HttpServer server;
    private final ExecutorService executor;
    private final Scrapes scrapes;

    private MetricsEndpoint(HttpServer server, ExecutorService executor, Scrapes scrapes) {
        this.server = server;
        this.executor = executor;
        this.scrapes = scrapes;
    }

    /**
     * Starts serving {@code registry}.
     *
     * @param host address to bind, {@link #DEFAULT_HOST} unless the user asks otherwise
     * @param port port to bind, 0 for a free one (see {@link #port()})
     * @throws IllegalStateException when the port is taken: one line naming the port and
     *     {@code --metrics-port}
     * @throws IllegalArgumentException when the port is out of range or the host cannot be bound
     */
    public static MetricsEndpoint start(PrometheusMeterRegistry registry, String host, int port) {
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("metrics port " + port + " is out of range: give --metrics-port "
                    + "0..65535 (0 picks a free port)");
        }
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(host, port), 0);
        } catch (BindException e) {
            throw new IllegalStateException(
                    "metrics port " + port + " on " + host + " is already in use: choose "
                            + "another with --metrics-port (0 picks a free port)",
                    e);
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "cannot serve metrics on " + host + ":" + port + ": " + e.getMessage(), e);
        }
        ExecutorService executor = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "tp-metrics-http");
            thread.setDaemon(true);
            return thread;
        });
        server.setExecutor(executor);
        Scrapes scrapes = new Scrapes();
        server.createContext("/", exchange -> serve(registry, exchange, scrapes));
        server.start();
        MetricsEndpoint endpoint = new MetricsEndpoint(server, executor, scrapes);
        LOG.info("serving metrics at {}", endpoint.uri());
        return endpoint;
    }

    private static void serve(PrometheusMeterRegistry registry, HttpExchange exchange, Scrapes scrapes) {
        try (exchange) {
            String method = exchange.getRequestMethod();
            if (!PATH.equals(exchange.getRequestURI().getPath())) {
                reply(exchange, 404, "text/plain; charset=utf-8", utf8("not found: metrics are at " + PATH + "\n"));
                return;
            }
            if (!method.equals("GET") && !method.equals("HEAD")) {
                exchange.getResponseHeaders().add("Allow", "GET, HEAD");
                reply(exchange, 405, "text/plain; charset=utf-8", utf8("use GET\n"));
                return;
            }
            String accept = exchange.getRequestHeaders().getFirst("Accept");
            String contentType =
                    accept != null && accept.contains("application/openmetrics-text") ? OPEN_METRICS : TEXT_004;
            long scrape = scrapes.started(System.nanoTime());
            ByteArrayOutputStream body = new ByteArrayOutputStream(64 * 1024);
            registry.scrape(body, contentType);
            reply(exchange, 200, contentType, method.equals("HEAD") ? null : body.toByteArray());
            scrapes.served(scrape);
        } catch (IOException | RuntimeException e) {
            // the scraper sees a failed scrape (up == 0); the process goes on
            FAILED_SCRAPES.warn("metrics scrape failed: {}", e.toString());
        }
    }

    private static void reply(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(status, body == null ? -1 : body.length);
        if (body != null) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** The bound port: the one asked for, or the free one chosen for port 0. */
    public int port() {
        return server.getAddress().getPort();
    }

    /** Where Prometheus should scrape. */
    public URI uri() {
        InetSocketAddress address = server.getAddress();
        String host = address.getAddress().getHostAddress();
        return URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + address.getPort() + PATH);
    }

    /**
     * Waits until a scrape that starts after this call has been served, so meters registered just
     * before (a run's summary gauges) reach the scraper before the process closes the endpoint.
     * Waits at most twice the interval between the last two scrapes (one interval plus slack), and
     * never more than {@code max}; returns false at once when nothing has scraped yet.
     *
     * @return whether such a scrape was served
     */
    public boolean awaitNextScrape(Duration max) throws InterruptedException {
        return scrapes.awaitNext(max);
    }

    /** Stops serving at once; the registry stays as it is. */
    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    /** Scrape bookkeeping: which scrapes started and were served, and the interval between them. */
    static final class Scrapes {
        private long startedCount;
        private long servedUpTo;
        private long lastStartNs;
        private long intervalNs = -1;

        /** A scrape starts at {@code nowNs}; returns its number. */
        synchronized long started(long nowNs) {
            if (startedCount > 0) {
                intervalNs = nowNs - lastStartNs;
            }
            lastStartNs = nowNs;
            return ++startedCount;
        }

        synchronized void served(long scrape) {
            servedUpTo = Math.max(servedUpTo, scrape);
            notifyAll();
        }

        synchronized boolean awaitNext(Duration max) throws InterruptedException {
            if (startedCount == 0) {
                return false;
            }
            long waitNs = intervalNs < 0 ? max.toNanos() : Math.min(max.toNanos(), 2 * intervalNs);
            long deadline = System.nanoTime() + waitNs;
            long target = startedCount + 1;
            for (long left = waitNs; servedUpTo < target; left = deadline - System.nanoTime()) {
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
            return true;
        }
    }
}
