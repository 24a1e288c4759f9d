package io.tokenpulse.simulator.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class KvCacheTest {

    /** Tokens 0 .. count-1, the first one replaced by {@code first}. */
    private static int[] ids(int first, int count) {
        int[] ids = IntStream.range(0, count).toArray();
        ids[0] = first;
        return ids;
    }

    /** A sequence that computed {@code tokens} of the prompt {@code hashes} and offered its full blocks to the cache. */
    private static List<KvCache.Block> computed(KvCache kv, long[] hashes, int tokens) {
        List<KvCache.Block> held = new ArrayList<>();
        assertThat(kv.admit(held, List.of(), tokens)).isTrue();
        kv.cacheFull(held, hashes, tokens, 0);
        return held;
    }

    @Test
    void aBlocksHashCoversEveryBlockBeforeIt() {
        long[] prompt = KvCache.blockHashes(ids(0, 48));
        long[] otherFirstToken = KvCache.blockHashes(ids(1000, 48));

        assertThat(prompt).hasSize(3).doesNotHaveDuplicates();
        // blocks 1 and 2 hold the same tokens in both, but follow a different block 0
        assertThat(otherFirstToken[1]).isNotEqualTo(prompt[1]);
        assertThat(otherFirstToken[2]).isNotEqualTo(prompt[2]);
        // a partial last block is not hashed; the full ones are the same as the longer prompt's
        assertThat(KvCache.blockHashes(ids(0, 40))).containsExactly(prompt[0], prompt[1]);
    }

    @Test
    void aHitNeedsTheWholePrefixAndLeavesAtLeastOneTokenToCompute() {
        KvCache kv = new KvCache(160, true);
        long[] prompt = KvCache.blockHashes(ids(0, 48));
        computed(kv, prompt, 48);

        assertThat(kv.lookup(prompt, 48)).hasSize(3);
        // the same prompt admitted again keeps its last token to compute: two blocks hit
        assertThat(kv.lookup(prompt, 47)).hasSize(2);
        assertThat(kv.lookup(KvCache.blockHashes(ids(1000, 48)), 48)).isEmpty();
        int[] sameStart = ids(0, 48);
        sameStart[20] = -5;
        assertThat(kv.lookup(KvCache.blockHashes(sameStart), 48)).hasSize(1);
        assertThat(new KvCache(160, false).lookup(prompt, 48)).isEmpty();
    }

    @Test
    void aSharedBlockIsHeldOnce() {
        KvCache kv = new KvCache(160, true);
        long[] prompt = KvCache.blockHashes(ids(0, 48));
        List<KvCache.Block> first = computed(kv, prompt, 48);
        List<KvCache.Block> second = new ArrayList<>();

        assertThat(kv.admit(second, kv.lookup(prompt, 47), 48)).isTrue();
        assertThat(kv.usage()).isEqualTo(4 / 10.0); // 3 shared, 1 of the second's own
        kv.free(first);
        assertThat(kv.usage()).isEqualTo(3 / 10.0);
        kv.free(second);
        assertThat(kv.usage()).isZero();
    }

    @Test
    void freedBlocksStayCachedUntilTheirMemoryIsNeededTheTailFirst() {
        KvCache kv = new KvCache(64, true); // 4 blocks
        long[] prompt = KvCache.blockHashes(ids(0, 48));
        kv.free(computed(kv, prompt, 48));
        assertThat(kv.lookup(prompt, 48)).hasSize(3);

        List<KvCache.Block> other = new ArrayList<>();
        assertThat(kv.admit(other, List.of(), 16)).isTrue(); // the one block nobody cached
        assertThat(kv.lookup(prompt, 48)).hasSize(3);
        assertThat(kv.grow(other, 32)).isTrue(); // evicts the prompt's last block, its first two stay
        assertThat(kv.lookup(prompt, 48)).hasSize(2);
        assertThat(kv.grow(other, 64)).isTrue();
        assertThat(kv.lookup(prompt, 48)).isEmpty();
        assertThat(kv.usage()).isEqualTo(1.0);

        assertThat(kv.grow(other, 80)).as("no block left").isFalse();
        assertThat(kv.admit(new ArrayList<>(), List.of(), 1)).isFalse();
        assertThat(kv.usage()).isEqualTo(1.0);
    }
}
