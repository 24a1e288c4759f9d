package io.tokenpulse.cli;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tokenpulse.aggregator.exposition.MetricsEndpoint;
import picocli.CommandLine.Option;

/** {@code --metrics-port}, shared by the commands that serve Prometheus metrics. */
final class MetricsOptions {

  @Option(names = "--metrics-port", defaultValue = "9464",
      description = "Port of the Prometheus /metrics endpoint on 127.0.0.1, 0 to disable (default: ${DEFAULT-VALUE}).")
  int metricsPort;

  /** Fails with one line naming the flag when the port cannot be one. */
  void validate() {
    if (metricsPort < 0 || metricsPort > 65535) {
      throw UserError.usage("--metrics-port must be in 0..65535, got " + metricsPort);
    }
  }

  /** Serves {@code registry} on 127.0.0.1, or returns null when disabled with port 0. */
  MetricsEndpoint startOrNull(PrometheusMeterRegistry registry) {
    return metricsPort > 0 ? MetricsEndpoint.start(registry, MetricsEndpoint.DEFAULT_HOST, metricsPort) : null;
  }
}
