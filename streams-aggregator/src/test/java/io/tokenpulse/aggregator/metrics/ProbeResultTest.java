package io.tokenpulse.aggregator.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The probes' figures, and vLLM's probe E2EL figures whatever --metric-percentiles selects. */
class ProbeResultTest {

    private static final long MS = 1_000_000L;

    private static RequestValues probe(boolean success, long sentMs, long e2elMs) {
        long sent = sentMs * MS;
        long end = sent + e2elMs * MS;
        return RequestValues.of(new RequestTiming(
                success, sent, sent, success ? new long[] {end} : new long[0], end, end, 1, success ? 1 : 0, sent));
    }

    @Test
    void vllmsMedianP99AndMaxAreNumpysOverTheSuccessfulProbes() {
        MetricsAccumulator probes = new MetricsAccumulator(0, GoodputSlo.NONE);
        for (long e2el : new long[] {10, 40, 20, 30}) {
            probes.add(probe(true, e2el * 7, e2el));
        }
        probes.add(probe(false, 500, 900));

        ProbeResult result = ProbeResult.of(probes, MetricPercentiles.parse("50"));

        assertThat(result.completed()).isEqualTo(4);
        assertThat(result.failed()).isEqualTo(1);
        ProbeResult.VllmE2el vllm = result.vllmE2el().orElseThrow();
        // numpy: median([10, 20, 30, 40]) = 25; percentile(.., 99) = 30 + 0.97 * 10; max = 40
        assertThat(vllm.medianMs()).isCloseTo(25, within(1e-9));
        assertThat(vllm.p99Ms()).isCloseTo(39.7, within(1e-9));
        assertThat(vllm.maxMs()).isCloseTo(40, within(1e-9));
    }

    @Test
    void withoutASuccessfulProbeVllmHasNoFigures() {
        MetricsAccumulator probes = new MetricsAccumulator(0, GoodputSlo.NONE);
        probes.add(probe(false, 0, 5));
        assertThat(ProbeResult.of(probes, MetricPercentiles.parse("99")).vllmE2el())
                .isEmpty();
    }
}
