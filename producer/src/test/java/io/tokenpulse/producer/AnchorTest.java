package io.tokenpulse.producer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class AnchorTest {

    @Test
    void keepsThePairingWhoseMonotonicReadingsLayClosest() {
        // before/after pairs: the first try preempted for 2 ms around its wall-clock read, the third tight
        Iterator<Long> nanos = List.of(
                        0L, 2_000_000L, 3_000_000L, 3_100_000L, 4_000_000L, 4_000_200L, 5_000_000L, 5_050_000L)
                .iterator();
        Iterator<Long> nanosThenSteady =
                LongStream.iterate(6_000_000L, n -> n + 100_000L).boxed().iterator();
        Instant wall = Instant.ofEpochSecond(1_764_300_000L);
        long[] reads = {0};

        Anchor anchor = Anchor.of(
                () -> nanos.hasNext() ? nanos.next() : nanosThenSteady.next(),
                () -> wall.plusNanos(1_000 * reads[0]++));

        assertThat(anchor.startNs()).isEqualTo(4_000_100L);
        assertThat(anchor.startEpochNs()).isEqualTo(1_764_300_000L * 1_000_000_000L + 2_000L);
        assertThat(reads[0]).isEqualTo(Anchor.TRIES);
    }

    @Test
    void theWallClockOfNowIsNow() {
        Anchor anchor = Anchor.now();
        Instant now = Instant.now();

        assertThat(anchor.epochNs(System.nanoTime()))
                .isCloseTo(now.getEpochSecond() * 1_000_000_000L + now.getNano(), offset(5_000_000L));
    }
}
