package io.tokenpulse.aggregator.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
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
}
