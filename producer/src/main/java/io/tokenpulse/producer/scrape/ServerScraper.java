package io.tokenpulse.producer.scrape;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.tokenpulse.producer.http.Tls;
import io.tokenpulse.schemas.logging.RepeatedWarning;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scrapes servers' Prometheus {@code /metrics} every interval during a run and hands each scrape's
 * {@link Series} to a {@link Listener} (the Kafka records, the run's server section).
 *
 * <p>Off the timing path: one thread of its own with its own HTTP client (the JDK's), so a slow or
 * dead endpoint never delays a request's timestamps. Each scrape waits at most the interval (1 s to
 * 10 s). A failed scrape (down, slow, not 200, HTML, garbage, a certificate that does not check out)
 * is counted per outcome and logged through {@link RepeatedWarning}; the run goes on. https endpoints
 * are checked as the run's own requests are ({@link Tls}: not at all with {@code --insecure}).
 * Thread-safe.
 */
public final class ServerScraper implements AutoCloseable {

    /** What a scrape yields; called on the scraper's thread. */
    public interface Listener {
        void onScrape(URI source, long scrapeEpochNs, List<Series> series);
    }

    private static final Logger LOG = LoggerFactory.getLogger(ServerScraper.class);
    private static final Duration MIN_TIMEOUT = Duration.ofSeconds(1);
    private static final Duration MAX_TIMEOUT = Duration.ofSeconds(10);

    private final List<URI> sources;
    private final Duration timeout;
    private final Listener listener;
    private final HttpClient http;
    private final ScheduledExecutorService thread;
    private final RepeatedWarning failures = new RepeatedWarning(LOG, "failed server-metrics scrapes");
    private final LongAdder succeeded = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final Counter succeededMeter;
    private final Counter failedMeter;
    /** The periodic scrapes; cancelled (not interrupted) by {@link #close}. */
    private ScheduledFuture<?> periodic;
    /** Set by {@link #close}, under this object's lock: no scrape reaches the listener after it. */
    private boolean closed;

    private ServerScraper(
            List<URI> sources, Duration interval, boolean insecure, Listener listener, MeterRegistry meters) {
        this.sources = List.copyOf(sources);
        this.timeout = interval.compareTo(MIN_TIMEOUT) < 0
                ? MIN_TIMEOUT
                : interval.compareTo(MAX_TIMEOUT) > 0 ? MAX_TIMEOUT : interval;
        this.listener = listener;
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(timeout)
                .sslContext(Tls.jdkContext(insecure))
                .build();
        this.thread = Executors.newSingleThreadScheduledExecutor(new DefaultThreadFactory("tp-server-scrape", true));
        // registered at 0: a healthy run shows 0 failed scrapes, not "no data"
        this.succeededMeter = scrapes(meters, "ok");
        this.failedMeter = scrapes(meters, "failed");
    }

    /**
     * Scrapes {@code sources} once before it returns, then every {@code interval} on its own thread.
     *
     * @param insecure {@code --insecure}: accept any https certificate and host name
     * @param meters where {@code tokenpulse.client.server.scrapes{outcome}} is counted
     */
    public static ServerScraper start(
            List<URI> sources, Duration interval, boolean insecure, Listener listener, MeterRegistry meters) {
        if (sources.isEmpty() || interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("bug: sources " + sources + ", interval " + interval);
        }
        ServerScraper scraper = new ServerScraper(sources, interval, insecure, listener, meters);
        // The first scrape runs here, before the load: a cold HTTP client and parser cost tens of ms of
        // CPU, which overlapped the first timed requests when it ran on the scraper's thread.
        scraper.scrapeAll();
        scraper.periodic = scraper.thread.scheduleAtFixedRate(
                scraper::scrapeAll, interval.toNanos(), interval.toNanos(), TimeUnit.NANOSECONDS);
        return scraper;
    }

    public long succeeded() {
        return succeeded.sum();
    }

    public long failed() {
        return failed.sum();
    }

    /**
     * Stops after one last scrape, so that the run's end is covered too; once it returns, the listener
     * is never called again (the shard then announces how many records its scrapes published). A
     * second call does nothing.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
        }
        // a scrape under way finishes first (one thread), then the last one runs
        periodic.cancel(false);
        try {
            thread.submit(this::scrapeAll).get(timeout.toMillis() * sources.size() + 1000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.debug("last server-metrics scrape did not finish", e);
        } finally {
            synchronized (this) {
                closed = true;
            }
            thread.shutdownNow();
        }
    }

    private void scrapeAll() {
        for (URI source : sources) {
            scrape(source);
        }
    }

    private void scrape(URI source) {
        long epochNs = epochNs(Instant.now());
        String problem;
        try {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(source)
                            .timeout(timeout)
                            .header("Accept", "text/plain;version=0.0.4;q=0.9,application/openmetrics-text;q=0.5")
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            problem = response.statusCode() != 200
                    ? "HTTP " + response.statusCode()
                    : response.headers()
                                    .firstValue("content-type")
                                    .orElse("")
                                    .toLowerCase(Locale.ROOT)
                                    .contains("html")
                            ? "an HTML page, not Prometheus metrics"
                            : null;
            if (problem == null) {
                List<Series> series = PrometheusText.parse(response.body());
                synchronized (this) {
                    if (closed) {
                        return; // a scrape that outlived close(): the run's count is already announced
                    }
                    listener.onScrape(source, epochNs, series);
                }
                succeeded.increment();
                succeededMeter.increment();
                return;
            }
        } catch (IOException | IllegalArgumentException e) {
            problem = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        failed.increment();
        failedMeter.increment();
        failures.warn("server-metrics scrape of {} failed: {} (counted; the run goes on)", source, problem);
    }

    private static Counter scrapes(MeterRegistry meters, String outcome) {
        return Counter.builder("tokenpulse.client.server.scrapes")
                .description("Scrapes of the server's /metrics (bench --server-metrics), by outcome")
                .tag("outcome", outcome)
                .register(meters);
    }

    private static long epochNs(Instant instant) {
        return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
    }
}
