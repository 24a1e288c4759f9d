package io.tokenpulse.aggregator.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SelectionParsingTest {

    @Test
    void metricsComeOutInVllmOrderWhateverTheUserOrder() {
        assertThat(PercentileMetrics.parse("token_latency,e2el,ttft,ttft").metrics())
                .containsExactly(Metric.TTFT, Metric.E2EL, Metric.TOKEN_LATENCY);
        assertThat(PercentileMetrics.parse("ttft,tpot,itl")).isEqualTo(PercentileMetrics.DEFAULT);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "unknown name        | ttft,foo     | unknown metric 'foo': use one of ttft, tpot, itl, e2el, token_latency",
                "extension not here  | queue_delay  | unknown metric 'queue_delay'",
                "ttfo is automatic   | ttft,ttfo    | ttfo is not one of vLLM's metrics; TTFO is reported by itself",
                "empty               | ' '          | --percentile-metrics is empty",
            })
    void unknownPercentileMetricListsTheAllowedOnes(String why, String input, String message) {
        assertThatThrownBy(() -> PercentileMetrics.parse(input)).hasMessageContaining(message);
    }

    @Test
    void percentilesKeepTheirOrder() {
        assertThat(MetricPercentiles.parse("99, 50,99.9,0,100").percentiles())
                .containsExactly(99.0, 50.0, 99.9, 0.0, 100.0);
        assertThat(MetricPercentiles.parse("99")).isEqualTo(MetricPercentiles.DEFAULT);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "above 100        | 99,101  | '101' is not a number in [0, 100]",
                "negative         | -1      | '-1' is not a number in [0, 100]",
                "not a number     | p99     | 'p99' is not a number",
                "empty element    | 50,     | '' is not a number",
                "repeated         | 99,99.0 | percentiles repeat",
            })
    void badPercentilesFail(String why, String input, String message) {
        assertThatThrownBy(() -> MetricPercentiles.parse(input)).hasMessageContaining(message);
    }

    @Test
    void emptyListOfPercentilesIsRejected() {
        assertThatThrownBy(() -> new MetricPercentiles(List.of())).hasMessageContaining("at least one");
    }
}
