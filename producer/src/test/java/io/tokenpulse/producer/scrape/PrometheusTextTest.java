package io.tokenpulse.producer.scrape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PrometheusTextTest {

    @Test
    void samplesKeepTheirLabelsAndHistogramsGatherTheirBuckets() {
        List<Series> series = PrometheusText.parse("""
                # HELP vllm:num_requests_running Number of requests in model execution batches.
                # TYPE vllm:num_requests_running gauge
                vllm:num_requests_running{engine="0",model_name="m"} 3.0
                # TYPE vllm:num_preemptions counter
                vllm:num_preemptions_total{engine="0",model_name="m"} 2.0
                # TYPE vllm:time_to_first_token_seconds histogram
                vllm:time_to_first_token_seconds_bucket{le="0.1",model_name="m"} 1.0
                vllm:time_to_first_token_seconds_bucket{le="+Inf",model_name="m"} 4.0
                vllm:time_to_first_token_seconds_bucket{le="1.0",model_name="m"} 3.0
                vllm:time_to_first_token_seconds_sum{model_name="m"} 2.5
                vllm:time_to_first_token_seconds_count{model_name="m"} 4.0
                untyped_thing{path="a \\"quoted\\" \\\\ value"} 7 1700000000000
                """);

        assertThat(series)
                .containsExactly(
                        new Series(
                                "vllm:num_requests_running",
                                "gauge",
                                Map.of("engine", "0", "model_name", "m"),
                                3.0,
                                null,
                                List.of()),
                        new Series(
                                "vllm:num_preemptions_total",
                                "counter",
                                Map.of("engine", "0", "model_name", "m"),
                                2.0,
                                null,
                                List.of()),
                        new Series(
                                "vllm:time_to_first_token_seconds",
                                "histogram",
                                Map.of("model_name", "m"),
                                2.5,
                                4.0,
                                List.of(
                                        new Series.Bucket(0.1, 1),
                                        new Series.Bucket(1.0, 3),
                                        new Series.Bucket(Double.POSITIVE_INFINITY, 4))),
                        new Series(
                                "untyped_thing",
                                "untyped",
                                Map.of("path", "a \"quoted\" \\ value"),
                                7,
                                null,
                                List.of()));
    }

    @Test
    void openMetricsExemplarsCreatedAndEofAreDropped() {
        List<Series> series = PrometheusText.parse("""
                # TYPE sglang:num_running_reqs gauge
                sglang:num_running_reqs{model_name="m"} 5
                # TYPE tokens counter
                tokens_total 10 # {trace_id="abc"} 1.0 1700000000.0
                tokens_created 1700000000.0
                # EOF
                """);

        assertThat(series)
                .extracting(Series::name, Series::value)
                .containsExactly(
                        Tuple.tuple("sglang:num_running_reqs", 5.0),
                        Tuple.tuple("tokens_total", 10.0),
                        Tuple.tuple("tokens_created", 1.7e9));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "an HTML page        | <html><body>502 Bad Gateway</body></html> | line 1 is not a Prometheus sample",
                "a word for a value  | up{job=\"x\"} yes                           | not a number: yes",
                "an open label       | up{job=\"x} 1                              | unterminated label value",
                "JSON                | {\"status\": \"ok\"}                        | no metric name",
            })
    void garbageIsRefusedWithTheLine(String why, String body, String message) {
        assertThatThrownBy(() -> PrometheusText.parse(body))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message);
    }
}
