package io.tokenpulse.cli.options;

import io.tokenpulse.runner.RunPlan;
import io.tokenpulse.runner.UserError;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * {@code --server-metrics [URL]}, {@code --server-metrics-interval-ms} and {@code --scrape-url}: which
 * Prometheus endpoints bench scrapes during the run, into the {@code server-metrics} topic.
 */
public final class ServerMetricsOptions {

    static final String SERVER_METRICS = "--server-metrics";
    static final String INTERVAL = "--server-metrics-interval-ms";
    static final String SCRAPE_URL = "--scrape-url";
    /** Marks {@code --server-metrics} given without a URL: the target's own /metrics. */
    private static final String TARGET = "target";

    @Option(
            names = SERVER_METRICS,
            paramLabel = "URL",
            arity = "0..1",
            fallbackValue = TARGET,
            description = "Scrape the server's Prometheus metrics during the run into the server-metrics topic and"
                    + " the result's server section: URL, or without one the target's /metrics.")
    String serverMetrics;

    @Option(
            names = INTERVAL,
            paramLabel = "MS",
            defaultValue = "1000",
            description = "How often to scrape, in ms (default: ${DEFAULT-VALUE}).")
    long intervalMs;

    @Option(
            names = SCRAPE_URL,
            paramLabel = "URL",
            description = "A further Prometheus endpoint to scrape, e.g. a DCGM or node exporter, a second replica"
                    + " (repeatable).")
    List<String> scrapeUrls = new ArrayList<>();

    /** Bad URLs and intervals are usage errors, before the run. */
    public void validate() {
        if (intervalMs < 100) {
            throw UserError.usage(INTERVAL + " must be >= 100 ms, got " + intervalMs);
        }
        if (serverMetrics != null && !serverMetrics.equals(TARGET)) {
            url(SERVER_METRICS, serverMetrics);
        }
        scrapeUrls.forEach(url -> url(SCRAPE_URL, url));
    }

    /** The endpoints to scrape; empty when none was asked for. */
    List<URI> sources(URI targetBaseUrl) {
        List<URI> sources = new ArrayList<>();
        if (serverMetrics != null) {
            sources.add(
                    serverMetrics.equals(TARGET)
                            ? URI.create(targetBaseUrl.toString().replaceAll("/+$", "") + "/metrics")
                            : url(SERVER_METRICS, serverMetrics));
        }
        scrapeUrls.forEach(url -> sources.add(url(SCRAPE_URL, url)));
        return sources;
    }

    /** What a run against {@code targetBaseUrl} scrapes (checked by {@link #validate} first). */
    public RunPlan.Scrapes scrapes(URI targetBaseUrl) {
        return new RunPlan.Scrapes(sources(targetBaseUrl), interval());
    }

    Duration interval() {
        return Duration.ofMillis(intervalMs);
    }

    private static URI url(String flag, String text) {
        try {
            URI uri = new URI(text);
            if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null) {
                return uri;
            }
        } catch (URISyntaxException e) {
            // reported below
        }
        throw UserError.usage(flag + " " + text + " is not an http(s) URL; give e.g. http://127.0.0.1:8000/metrics");
    }
}
