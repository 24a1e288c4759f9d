package io.tokenpulse.aggregator.topology;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RequestJoinTest {

    /** The store's byte order must be block order: the key built by hand equals the zero-padded format. */
    @Test
    void blockKeysKeepTheZeroPaddedFormat() {
        for (int block : new int[] {0, 7, 10, 99, 12_345, 999_999_999, 1_000_000_000, Integer.MAX_VALUE, -1}) {
            assertThat(RequestJoin.blockKey("run-7/benchmark-serving-3", block))
                    .isEqualTo(String.format("%s/%010d", "run-7/benchmark-serving-3", block));
        }
    }
}
