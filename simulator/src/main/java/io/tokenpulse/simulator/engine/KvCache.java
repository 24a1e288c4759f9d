package io.tokenpulse.simulator.engine;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * The KV cache of a {@link BatchingEngine} as vLLM's V1 KV cache manager keeps it: a pool of blocks of
 * {@value #BLOCK_TOKENS} tokens, each running sequence holding the blocks its computed tokens fill, and
 * automatic prefix caching. A block full of prompt tokens is cached under a hash chained over the
 * prompt's blocks before it, so a hit on block i needs the whole prefix up to it; a block no sequence
 * holds any more stays cached until its memory is needed, the least recently freed first (LRU).
 *
 * <p>Threading: confined to the engine's one thread.
 */
final class KvCache {

    /** vLLM's default block size. */
    static final int BLOCK_TOKENS = 16;

    private final int totalBlocks;
    private final boolean prefixCaching;
    /** Blocks some running sequence holds. */
    private int usedBlocks;
    /** Every cached block by hash, held or not. */
    private final Map<Long, Block> cached = new HashMap<>();
    /** Cached blocks no sequence holds, least recently freed first: evicted in this order when memory runs out. */
    private final LinkedHashSet<Block> evictable = new LinkedHashSet<>();

    KvCache(int capacityTokens, boolean prefixCaching) {
        this.totalBlocks = blocksFor(capacityTokens);
        this.prefixCaching = prefixCaching;
    }

    /**
     * The chained hashes of the full blocks of {@code tokenIds}: block i's hash covers blocks 0..i,
     * so equal hashes mean equal prefixes. SHA-256 as vLLM's {@code --prefix-caching-hash-algo
     * sha256}, truncated to 64 bits.
     */
    static long[] blockHashes(int[] tokenIds) {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
        long[] hashes = new long[tokenIds.length / BLOCK_TOKENS];
        ByteBuffer block = ByteBuffer.allocate(Long.BYTES + BLOCK_TOKENS * Integer.BYTES);
        long parent = 0;
        for (int i = 0; i < hashes.length; i++) {
            block.clear().putLong(parent);
            for (int t = i * BLOCK_TOKENS; t < (i + 1) * BLOCK_TOKENS; t++) {
                block.putInt(tokenIds[t]);
            }
            parent = ByteBuffer.wrap(sha.digest(block.array())).getLong();
            hashes[i] = parent;
        }
        return hashes;
    }

    /** Fraction of the pool that running sequences hold (cached blocks nobody holds count as free, as in vLLM). */
    double usage() {
        return totalBlocks == 0 ? 0 : Math.min(1.0, usedBlocks / (double) totalBlocks);
    }

    /**
     * The cached blocks at the start of {@code hashes}, at most {@code maxTokens} tokens' worth: what a
     * sequence being admitted need not compute. Empty without prefix caching.
     */
    List<Block> lookup(long[] hashes, int maxTokens) {
        List<Block> hit = new ArrayList<>();
        if (!prefixCaching) {
            return hit;
        }
        int maxBlocks = Math.min(hashes.length, maxTokens / BLOCK_TOKENS);
        for (int i = 0; i < maxBlocks; i++) {
            Block block = cached.get(hashes[i]);
            if (block == null) {
                break;
            }
            hit.add(block);
        }
        return hit;
    }

    /**
     * Admits a sequence that holds nothing yet: it takes the {@code hit} blocks and fresh blocks for
     * {@code tokens} tokens in all. False, changing nothing, when the pool cannot hold them.
     */
    boolean admit(List<Block> held, List<Block> hit, int tokens) {
        int idleHits = (int) hit.stream().filter(b -> b.refs == 0).count();
        int fresh = blocksFor(tokens) - hit.size();
        if (totalBlocks - usedBlocks - idleHits < fresh) {
            return false;
        }
        for (Block block : hit) {
            if (block.refs++ == 0) {
                evictable.remove(block);
                usedBlocks++;
            }
        }
        held.addAll(hit);
        return grow(held, tokens);
    }

    /** Adds fresh blocks to {@code held} so that it holds {@code tokens} tokens; false, changing nothing, when the pool is short. */
    boolean grow(List<Block> held, int tokens) {
        int fresh = blocksFor(tokens) - held.size();
        if (fresh <= 0) {
            return true;
        }
        if (totalBlocks - usedBlocks < fresh) {
            return false;
        }
        for (int free = totalBlocks - usedBlocks - evictable.size(); free < fresh; free++) {
            Block lru = evictable.iterator().next();
            evictable.remove(lru);
            cached.remove(lru.hash);
        }
        for (int i = 0; i < fresh; i++) {
            held.add(new Block());
        }
        usedBlocks += fresh;
        return true;
    }

    /**
     * Caches the blocks of {@code held} that {@code computedTokens} filled, up to the prompt's last full
     * block ({@code hashes}), from block {@code from} on; returns the number of blocks considered so far.
     * A block whose hash another sequence cached first stays the sequence's own.
     */
    int cacheFull(List<Block> held, long[] hashes, int computedTokens, int from) {
        int full = Math.min(hashes.length, computedTokens / BLOCK_TOKENS);
        if (!prefixCaching) {
            return full;
        }
        for (int i = from; i < full; i++) {
            Block block = held.get(i);
            if (!block.isCached() && !cached.containsKey(hashes[i])) {
                block.cacheAs(hashes[i]);
                cached.put(hashes[i], block);
            }
        }
        return Math.max(from, full);
    }

    /** Gives back every block of {@code held}, the last first, so a prefix's tail is evicted before its head. */
    void free(List<Block> held) {
        for (int i = held.size() - 1; i >= 0; i--) {
            Block block = held.get(i);
            if (!block.isCached()) {
                usedBlocks--;
            } else if (--block.refs == 0) {
                usedBlocks--;
                evictable.add(block);
            }
        }
        held.clear();
    }

    private static int blocksFor(int tokens) {
        return (tokens + BLOCK_TOKENS - 1) / BLOCK_TOKENS;
    }

    /** One block of the pool: a sequence's own, or cached under its prefix hash and shared by {@code refs} sequences. */
    static final class Block {
        private long hash;
        private boolean isCached;
        private int refs = 1;

        boolean isCached() {
            return isCached;
        }

        private void cacheAs(long prefixHash) {
            hash = prefixHash;
            isCached = true;
        }
    }
}
