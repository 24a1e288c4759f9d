package io.tokenpulse.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bench --simulate --otlp-endpoint URL} pushes the request meters under OpenTelemetry's gen_ai
 * names to an OTLP/HTTP receiver: the receiver here decodes what arrives with OpenTelemetry's own
 * protobuf classes (opentelemetry-proto), as a collector would. (Debian's Prometheus has no OTLP
 * receiver: bookworm's 2.42 predates it, and Debian builds it out of trixie's 2.53 and sid's 3.5 until
 * the Collector is packaged, Debian bug 1080354.)
 */
class OtlpExportIT {
    private static final int REQUESTS = 6;
    private static final int OUTPUT_LEN = 5;

    @TempDir
    Path home;

    @TempDir
    Path logs;

    @TempDir
    Path work;

    @Test
    void benchPushesTheRequestMetersUnderTheGenAiNames() throws Exception {
        List<ExportMetricsServiceRequest> received = new CopyOnWriteArrayList<>();
        List<String> paths = new CopyOnWriteArrayList<>();
        HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/", exchange -> {
            try (InputStream body = exchange.getRequestBody()) {
                paths.add(exchange.getRequestURI().getPath());
                received.add(ExportMetricsServiceRequest.parseFrom(body.readAllBytes()));
            }
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        receiver.start();
        Tokenpulse tokenpulse = new Tokenpulse(home, logs);
        try {
            Tokenpulse.Result bench = tokenpulse.run(
                    Tokenpulse.ROOT,
                    Duration.ofMinutes(3),
                    List.of(
                            "bench",
                            "--simulate",
                            "--simulate-profile",
                            "deterministic",
                            "--model",
                            "facebook/opt-125m",
                            "--dataset-name",
                            "random",
                            "--num-prompts",
                            Integer.toString(REQUESTS),
                            "--random-input-len",
                            "16",
                            "--random-output-len",
                            Integer.toString(OUTPUT_LEN),
                            "--ignore-eos",
                            "--metrics-port",
                            "0",
                            "--disable-tqdm",
                            "--data-dir",
                            work.resolve("data").toString(),
                            "--run-id",
                            "acceptance-otlp",
                            // no path: OTLP/HTTP's /v1/metrics is added
                            "--otlp-endpoint",
                            "http://127.0.0.1:" + receiver.getAddress().getPort()));
            assertThat(bench.exitCode()).as(bench.toString()).isZero();
        } finally {
            receiver.stop(0);
        }

        assertThat(paths).isNotEmpty().containsOnly("/v1/metrics");
        // cumulative: the last push has every request
        Map<String, Metric> last = received.get(received.size() - 1).getResourceMetricsList().stream()
                .flatMap(r -> r.getScopeMetricsList().stream())
                .flatMap(s -> s.getMetricsList().stream())
                .collect(Collectors.toMap(Metric::getName, m -> m, (a, b) -> a));
        assertThat(last)
                .containsKeys(
                        "gen_ai.client.operation.duration",
                        "gen_ai.client.operation.time_to_first_chunk",
                        "gen_ai.client.operation.time_per_output_chunk",
                        "gen_ai.client.token.usage");
        HistogramDataPoint duration =
                last.get("gen_ai.client.operation.duration").getHistogram().getDataPoints(0);
        assertThat(duration.getCount()).isEqualTo(REQUESTS);
        assertThat(attributes(duration.getAttributesList()))
                .containsEntry("gen_ai.operation.name", "text_completion")
                .containsEntry("gen_ai.request.model", "facebook/opt-125m")
                .containsEntry("tokenpulse.run_id", "acceptance-otlp");
        assertThat(duration.getExplicitBoundsList())
                .as("the conventions' buckets, in seconds")
                .startsWith(0.01, 0.02, 0.04);
        assertThat(last.get("gen_ai.client.operation.time_to_first_chunk")
                        .getHistogram()
                        .getDataPoints(0)
                        .getCount())
                .isEqualTo(REQUESTS);
        assertThat(last.get("gen_ai.client.token.usage").getHistogram().getDataPointsList())
                .anySatisfy(point -> {
                    assertThat(attributes(point.getAttributesList())).containsEntry("gen_ai.token.type", "output");
                    assertThat(point.getSum()).isEqualTo(REQUESTS * OUTPUT_LEN);
                });

        Tokenpulse.Result bad = tokenpulse.run(
                Tokenpulse.ROOT,
                Duration.ofMinutes(1),
                List.of("bench", "--simulate", "--otlp-endpoint", "localhost:4318"));
        assertThat(bad.exitCode()).as(bad.toString()).isEqualTo(2);
        assertThat(bad.stderr().strip())
                .endsWith("--otlp-endpoint 'localhost:4318' must be an http:// or https:// URL with a host, such as"
                        + " http://127.0.0.1:4318/v1/metrics")
                .doesNotContain("\n");

        // bench aggregates in-process only on the embedded platform: elsewhere the flag is aggregate's
        Tokenpulse.Result external = tokenpulse.run(
                Tokenpulse.ROOT,
                Duration.ofMinutes(1),
                List.of(
                        "bench",
                        "--simulate",
                        "--bootstrap-servers",
                        "127.0.0.1:" + FreePorts.one(),
                        "--otlp-endpoint",
                        "http://127.0.0.1:4318"));
        assertThat(external.exitCode()).as(external.toString()).isEqualTo(2);
        assertThat(external.stderr().strip())
                .endsWith("with --bootstrap-servers give it to 'tokenpulse aggregate'")
                .doesNotContain("\n");
    }

    private static Map<String, String> attributes(List<KeyValue> attributes) {
        return attributes.stream()
                .collect(Collectors.toMap(KeyValue::getKey, kv -> kv.getValue().getStringValue()));
    }
}
