package io.tokenpulse.aggregator.exposition;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.config.NamingConvention;
import io.micrometer.registry.otlp.OtlpConfig;
import io.micrometer.registry.otlp.OtlpMeterRegistry;
import io.tokenpulse.aggregator.topology.TopologyListener;
import io.tokenpulse.schemas.avro.RequestMetrics;
import io.tokenpulse.schemas.avro.RunEvent;
import io.tokenpulse.schemas.avro.RunSummary;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code --otlp-endpoint}: the request meters ({@link GenAiMeters}) pushed to an OpenTelemetry (OTLP/HTTP,
 * protobuf) receiver every {@link #STEP} and once more on close, beside the Prometheus endpoint. The
 * exporter posts only to the URL given: Micrometer's {@code OTEL_*} environment defaults (endpoint,
 * headers, resource attributes) are not read.
 */
public final class OtlpExport implements TopologyListener, AutoCloseable {

    /** How often the meters are pushed (cumulative, so a missed push loses nothing). */
    static final Duration STEP = Duration.ofSeconds(10);

    /** OTLP/HTTP's path for metrics, added to a URL that has no path. */
    static final String METRICS_PATH = "/v1/metrics";

    private final OtlpMeterRegistry registry;
    private final GenAiMeters meters;

    private OtlpExport(OtlpMeterRegistry registry, Duration retention) {
        this.registry = registry;
        this.meters = new GenAiMeters(registry, retention, Clock.SYSTEM);
    }

    /**
     * The receiver's URL as the exporter posts to it: {@code http(s)://host[:port]/path}, {@code
     * /v1/metrics} when the path is empty.
     *
     * @throws IllegalArgumentException with one line naming what to change
     */
    public static URI endpoint(String url) {
        URI uri;
        try {
            uri = new URI(url.trim());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(
                    "--otlp-endpoint '" + url + "' is not a URL; give one such as http://127.0.0.1:4318/v1/metrics");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
            throw new IllegalArgumentException("--otlp-endpoint '" + url
                    + "' must be an http:// or https:// URL with a host, such as http://127.0.0.1:4318/v1/metrics");
        }
        String path = uri.getRawPath() == null
                        || uri.getRawPath().isEmpty()
                        || uri.getRawPath().equals("/")
                ? METRICS_PATH
                : uri.getRawPath();
        return URI.create(scheme + "://" + uri.getRawAuthority() + path
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery()));
    }

    /** Starts pushing to {@code endpoint} (from {@link #endpoint}); a run's series go {@code retention} after its summary. */
    public static OtlpExport start(URI endpoint, Duration retention) {
        OtlpConfig config = new OtlpConfig() {
            @Override
            public String get(String key) {
                return null;
            }

            @Override
            public String url() {
                return endpoint.toString();
            }

            @Override
            public Duration step() {
                return STEP;
            }

            @Override
            public Map<String, String> headers() {
                return Map.of();
            }

            @Override
            public Map<String, String> resourceAttributes() {
                return Map.of("service.name", "tokenpulse");
            }

            @Override
            public TimeUnit baseTimeUnit() {
                return TimeUnit.SECONDS; // the conventions' unit, s
            }
        };
        OtlpMeterRegistry registry = OtlpMeterRegistry.builder(config)
                .clock(Clock.SYSTEM)
                .metricsSender(new LoggedOtlpSender())
                .build();
        registry.config().namingConvention(NamingConvention.identity); // the gen_ai names as they are
        return new OtlpExport(registry, retention);
    }

    @Override
    public void onRunEvent(RunEvent event) {
        meters.onRunEvent(event);
    }

    @Override
    public void onRequestMetrics(RequestMetrics metrics) {
        meters.onRequestMetrics(metrics);
    }

    @Override
    public void onRunSummary(RunSummary summary) {
        meters.onRunSummary(summary);
    }

    /** Pushes the meters a last time and stops. */
    @Override
    public void close() {
        registry.close();
    }
}
