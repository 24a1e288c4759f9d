package io.tokenpulse.cli.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tokenpulse.aggregator.exposition.MetricsEndpoint;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class MetricsOptionsTest {

    private static MetricsOptions parse(String... args) {
        MetricsOptions options = new MetricsOptions();
        new CommandLine(options).parseArgs(args);
        return options;
    }

    private static int freePort() throws Exception {
        try (ServerSocket probe = new ServerSocket(0)) {
            return probe.getLocalPort();
        }
    }

    @Test
    void metricsBindLoopbackUnlessAHostIsGiven() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (MetricsEndpoint endpoint =
                parse("--metrics-port", Integer.toString(freePort())).startOrNull(registry)) {
            assertThat(endpoint.uri().getHost()).isEqualTo("127.0.0.1");
        }
        // another loopback address stands in for 0.0.0.0: the test shows the flag reaches the bind
        try (MetricsEndpoint endpoint = parse(
                        "--metrics-host", "127.0.0.2", "--metrics-port", Integer.toString(freePort()))
                .startOrNull(registry)) {
            assertThat(endpoint.uri().getHost()).isEqualTo("127.0.0.2");
        }
    }

    @Test
    void portZeroServesNothing() {
        assertThat(parse("--metrics-port", "0", "--metrics-host", "0.0.0.0")
                        .startOrNull(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)))
                .isNull();
    }

    @Test
    void aBlankHostIsAUsageErrorNamingTheFlag() {
        assertThatThrownBy(() -> parse("--metrics-host", " ").validate())
                .hasMessage("--metrics-host must be an address such as 127.0.0.1 or 0.0.0.0");
    }
}
