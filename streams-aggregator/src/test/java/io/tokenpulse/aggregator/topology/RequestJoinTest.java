package io.tokenpulse.aggregator.topology;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RequestJoinTest {

    /** Keys already in a state store were made with this format: a key built otherwise must equal it. */
    @Test
    void chunkKeysKeepTheZeroPaddedFormat() {
        for (int seq : new int[] {0, 7, 10, 99, 12_345, 999_999_999, 1_000_000_000, Integer.MAX_VALUE, -1}) {
            assertThat(RequestJoin.chunkKey("run-7/benchmark-serving-3", seq))
                    .isEqualTo(String.format("%s/%010d", "run-7/benchmark-serving-3", seq));
        }
    }
}
