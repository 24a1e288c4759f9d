package io.tokenpulse.simulator.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class PromptPrefixesTest {

    private static int[] ids(int from, int count) {
        return IntStream.range(from, from + count).toArray();
    }

    private static int[] concat(int[] a, int[] b) {
        return IntStream.concat(IntStream.of(a), IntStream.of(b)).toArray();
    }

    @Test
    void aSharedPrefixHitsInWholeBlocksFromTheSecondPromptOn() {
        PromptPrefixes prefixes = new PromptPrefixes(1024);
        int[] shared = ids(0, 40); // two full blocks and 8 tokens
        assertThat(prefixes.cachedTokens(concat(shared, ids(1000, 20)))).isZero();
        // blocks 0 and 1 are the shared prefix's; block 2 mixes 8 shared and 8 own tokens: a miss
        assertThat(prefixes.cachedTokens(concat(shared, ids(2000, 20)))).isEqualTo(32);
    }

    @Test
    void aBlockCountsOnlyAfterItsWholePrefix() {
        PromptPrefixes prefixes = new PromptPrefixes(1024);
        int[] first = concat(ids(0, 16), ids(100, 16));
        prefixes.cachedTokens(first);
        // same second block after a different first one: not a prefix hit
        assertThat(prefixes.cachedTokens(concat(ids(50, 16), ids(100, 16)))).isZero();
        assertThat(prefixes.cachedTokens(first)).isEqualTo(32);
    }

    @Test
    void theLeastRecentlyUsedBlocksAreForgotten() {
        PromptPrefixes prefixes = new PromptPrefixes(2);
        prefixes.cachedTokens(ids(0, 32)); // blocks A, B
        prefixes.cachedTokens(ids(500, 32)); // C, D evict A, B
        assertThat(prefixes.cachedTokens(ids(0, 32))).isZero();
    }
}
