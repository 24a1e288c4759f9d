package io.tokenpulse.aggregator.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** vLLM's RTFx: the seconds of audio the successful requests sent, over the run's duration. */
class RtfxTest {

    private static final long S = 1_000_000_000L;

    /** A request sent at {@code sentS} with one event 1 s later, carrying {@code audioSeconds} of audio. */
    private static RequestValues request(boolean success, long sentS, double audioSeconds) {
        long lastNs = (sentS + 1) * S;
        return RequestValues.of(new RequestTiming(
                        success,
                        sentS * S,
                        sentS * S,
                        new long[] {lastNs},
                        lastNs,
                        lastNs,
                        0,
                        success ? 4 : 0,
                        sentS * S))
                .withInputAudioSeconds(audioSeconds);
    }

    private static MetricsAccumulator threeClips() {
        MetricsAccumulator run = new MetricsAccumulator(0, GoodputSlo.NONE);
        run.add(request(true, 0, 5.0));
        run.add(request(true, 2, 2.5));
        run.add(request(false, 4, 5.0)); // a failure's clip counts for nothing, as in vLLM
        return run;
    }

    @Test
    void successfulRequestsAudioOverTheDuration() {
        RunResult result = RunResult.of(threeClips(), 10 * S, PercentileMetrics.DEFAULT, MetricPercentiles.DEFAULT);
        // (5 + 2.5) s of audio transcribed in a 10 s run
        assertThat(result.rtfx()).isCloseTo(0.75, within(1e-12));
    }

    @Test
    void aRunWithoutAudioHasRtfxZero() {
        MetricsAccumulator run = new MetricsAccumulator(0, GoodputSlo.NONE);
        run.add(request(true, 0, 0));
        assertThat(RunResult.of(run, 10 * S, PercentileMetrics.DEFAULT, MetricPercentiles.DEFAULT)
                        .rtfx())
                .isZero();
    }

    @Test
    void theSecondsSurviveMergingAndTheStoreBytesAndOlderBytesReadAsNone() {
        MetricsAccumulator merged = new MetricsAccumulator(0, GoodputSlo.NONE);
        merged.merge(threeClips());
        merged.merge(threeClips());
        assertThat(merged.totalInputAudioSeconds()).isEqualTo(15.0);
        byte[] bytes = merged.toBytes();
        assertThat(MetricsAccumulator.fromBytes(bytes).totalInputAudioSeconds()).isEqualTo(15.0);

        // format 2 is format 3 without the trailing double
        byte[] format2 = Arrays.copyOf(bytes, bytes.length - Double.BYTES);
        format2[0] = 2;
        MetricsAccumulator older = MetricsAccumulator.fromBytes(format2);
        assertThat(older.totalInputAudioSeconds()).isZero();
        assertThat(older.completed()).isEqualTo(4);
    }
}
