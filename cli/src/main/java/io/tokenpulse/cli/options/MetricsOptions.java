package io.tokenpulse.cli.options;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tokenpulse.aggregator.exposition.MetricsEndpoint;
import io.tokenpulse.aggregator.exposition.OtlpExport;
import io.tokenpulse.runner.UserError;
import java.net.URI;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * {@code --metrics-port} and {@code --metrics-host}, shared by the commands that serve Prometheus
 * metrics, and {@code --otlp-endpoint}, which pushes the request meters to an OpenTelemetry receiver too.
 */
public final class MetricsOptions {

    @Option(
            names = "--metrics-port",
            defaultValue = "9464",
            description = "Port of the Prometheus /metrics endpoint, 0 to disable (default: ${DEFAULT-VALUE}).")
    public int metricsPort;

    // A container's Prometheus scrapes over the container network, so there it must be 0.0.0.0.
    @Option(
            names = "--metrics-host",
            defaultValue = MetricsEndpoint.DEFAULT_HOST,
            description =
                    "Address the /metrics endpoint binds; 0.0.0.0 for every interface, e.g. inside a container (default: ${DEFAULT-VALUE}).")
    public String metricsHost;

    @Option(
            names = "--otlp-endpoint",
            paramLabel = "URL",
            description =
                    "Also push the request meters, under OpenTelemetry's gen_ai names, to this OTLP/HTTP receiver every 10 s, e.g. http://127.0.0.1:4318/v1/metrics (/v1/metrics when the URL has no path; default: off).")
    public String otlpEndpoint;

    /** Fails with one line naming the flag when the port cannot be one or the host is blank. */
    public void validate() {
        if (metricsPort < 0 || metricsPort > 65535) {
            throw UserError.usage("--metrics-port must be in 0..65535, got " + metricsPort);
        }
        if (metricsHost.isBlank()) {
            throw UserError.usage("--metrics-host must be an address such as 127.0.0.1 or 0.0.0.0");
        }
        otlpEndpoint();
    }

    /** The OTLP receiver's URL, when given. */
    public Optional<URI> otlpEndpoint() {
        if (otlpEndpoint == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(OtlpExport.endpoint(otlpEndpoint));
        } catch (IllegalArgumentException e) {
            throw UserError.usage(e.getMessage());
        }
    }

    /** Serves {@code registry} on {@code --metrics-host}, or returns null when disabled with port 0. */
    public MetricsEndpoint startOrNull(PrometheusMeterRegistry registry) {
        return metricsPort > 0 ? MetricsEndpoint.start(registry, metricsHost, metricsPort) : null;
    }
}
