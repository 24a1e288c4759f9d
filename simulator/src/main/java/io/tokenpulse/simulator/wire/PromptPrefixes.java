package io.tokenpulse.simulator.wire;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The prompt prefixes one simulated server has seen, for {@code usage.prompt_tokens_details.cached_tokens}
 * (vLLM's {@code --enable-prompt-tokens-details}): a prompt's cached tokens are its leading full blocks of
 * 16 tokens that an earlier prompt already had, as a prefix cache with vLLM's block size would hit them.
 *
 * <p>Independent of the batching engine's KV cache (which models memory and eviction under load): this
 * is a bounded least-recently-used set of chained block hashes, so the deterministic profile reports
 * hits too. Thread-safe: the server's I/O threads share one instance; each call holds its lock for one
 * prompt's blocks.
 */
public final class PromptPrefixes {

    /** vLLM's default block size. */
    static final int BLOCK_TOKENS = 16;

    private final Map<Long, Boolean> blocks;

    /** @param capacityBlocks blocks kept before the least recently used is forgotten */
    public PromptPrefixes(int capacityBlocks) {
        if (capacityBlocks < 1) {
            throw new IllegalArgumentException("capacityBlocks must be >= 1, got " + capacityBlocks);
        }
        this.blocks = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
                return size() > capacityBlocks;
            }
        };
    }

    /**
     * The tokens of {@code promptIds} served from the cache: 16 per leading full block seen before (a
     * block counts only when every block before it did, as equal chained hashes mean equal prefixes);
     * then remembers every full block of this prompt.
     */
    public synchronized int cachedTokens(int[] promptIds) {
        int fullBlocks = promptIds.length / BLOCK_TOKENS;
        long hash = 1125899906842597L;
        int hits = 0;
        boolean prefixHit = true;
        for (int block = 0; block < fullBlocks; block++) {
            for (int i = block * BLOCK_TOKENS; i < (block + 1) * BLOCK_TOKENS; i++) {
                hash = 31 * hash + promptIds[i];
            }
            // mixed so that nearby chains do not collide in the map
            long key = hash * 0x9E3779B97F4A7C15L;
            prefixHit = prefixHit && blocks.get(key) != null;
            if (prefixHit) {
                hits++;
            }
            blocks.put(key, Boolean.TRUE);
        }
        return hits * BLOCK_TOKENS;
    }
}
