package io.tokenpulse.aggregator.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LatencyDistributionTest {

    /** State stores written by earlier versions hold one writeDouble per sample: the layout must not change. */
    @Test
    void exactSamplesKeepTheLayoutOfOneDoubleAfterAnother() throws IOException {
        LatencyDistribution d = new LatencyDistribution(100);
        double[] samples = {3.5e6, 1.25e6, 9.0e7, -0.0, 42};
        for (double s : samples) {
            d.add(s);
        }
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        DataOutputStream old = new DataOutputStream(expected);
        old.writeInt(100);
        old.writeBoolean(true);
        old.writeInt(samples.length);
        for (double s : samples) {
            old.writeDouble(s);
        }
        ByteArrayOutputStream written = new ByteArrayOutputStream();
        d.writeTo(new DataOutputStream(written));
        assertThat(written.toByteArray()).isEqualTo(expected.toByteArray());

        LatencyDistribution back =
                LatencyDistribution.readFrom(new DataInputStream(new ByteArrayInputStream(expected.toByteArray())));
        assertThat(back.count()).isEqualTo(samples.length);
        ByteArrayOutputStream again = new ByteArrayOutputStream();
        back.writeTo(new DataOutputStream(again));
        assertThat(again.toByteArray()).isEqualTo(expected.toByteArray());
    }

    /** A live window's stats are taken at each emission while it grows: the merge of old and new samples must equal a full sort. */
    @Test
    void statsTakenWhileSamplesArriveEqualStatsOfAllAtOnce() {
        List<Double> percentiles = List.of(1.0, 25.0, 50.0, 90.0, 99.0, 100.0);
        Random random = new Random(7);
        LatencyDistribution growing = new LatencyDistribution(100_000);
        LatencyDistribution atOnce = new LatencyDistribution(100_000);
        for (int emission = 0; emission < 20; emission++) {
            for (int i = 0; i < 1 + random.nextInt(500); i++) {
                // repeats, both zeros, and values below and above everything seen so far
                double sample = switch (random.nextInt(5)) {
                    case 0 -> -0.0;
                    case 1 -> 0.0;
                    case 2 -> 20_000_000.0;
                    default -> random.nextDouble() * 1e9 * (emission + 1);
                };
                growing.add(sample);
                atOnce.add(sample);
            }
            assertThat(growing.stats(percentiles)).isEqualTo(copyOf(atOnce).stats(percentiles));
        }
    }

    private static LatencyDistribution copyOf(LatencyDistribution d) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            d.writeTo(new DataOutputStream(bytes));
            return LatencyDistribution.readFrom(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
