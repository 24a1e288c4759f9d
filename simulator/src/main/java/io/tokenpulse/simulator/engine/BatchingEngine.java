package io.tokenpulse.simulator.engine;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The scheduler of a continuous-batching engine, as vLLM's V1 scheduler works with chunked prefill:
 * each step first gives every decoding request one token of the budget, then continues the prompts
 * already being prefilled, then admits waiting requests first come first served while the batch has
 * room ({@code maxNumSeqs}), the step has budget left and the KV cache has blocks. Without chunked
 * prefill a step either prefills whole prompts or decodes, never both. Time is not its business:
 * {@link BatchingModel} runs it.
 *
 * <p>The KV cache ({@link KvCache}) holds each running request's computed tokens. A request admitted
 * with a prompt whose leading blocks are cached computes only the rest (the prefix-cache hit). When a
 * running request needs a block and none is free, the newest running request not yet in the step is
 * preempted (vLLM's recompute policy): its blocks are freed and it goes back to the head of the
 * queue, to prefill its prompt and the tokens it already sent again; no request is admitted in that
 * step.
 *
 * <p>Threading: confined to the engine's one thread.
 */
final class BatchingEngine {

    private static final long[] NO_BLOCKS = new long[0];

    private final EngineProfile profile;
    private final KvCache kv;
    private final ArrayDeque<Sequence> waiting = new ArrayDeque<>();
    private final List<Sequence> running = new ArrayList<>();
    private long prefixCacheQueries;
    private long prefixCacheHits;
    private long preemptions;

    BatchingEngine(EngineProfile profile) {
        this.profile = profile;
        this.kv = new KvCache(profile.kvCacheTokens(), profile.prefixCaching());
    }

    void add(Generation generation) {
        int[] ids = generation.promptIds();
        waiting.add(new Sequence(
                generation, profile.prefixCaching() && ids.length > 0 ? KvCache.blockHashes(ids) : NO_BLOCKS));
    }

    boolean idle() {
        return waiting.isEmpty() && running.isEmpty();
    }

    /** The queues, the KV cache and the engine's counters now. */
    EngineState state() {
        return new EngineState(
                running.size(), waiting.size(), kv.usage(), prefixCacheQueries, prefixCacheHits, preemptions);
    }

    /** The next step's batch, or null when there is nothing to run. */
    Step plan() {
        running.removeIf(this::finishIfDone);
        waiting.removeIf(seq -> seq.generation.isDone());
        if (idle()) {
            return null;
        }
        int budget = profile.stepTokenBudget();
        List<Sequence> decodes = new ArrayList<>();
        List<Sequence> prefills = new ArrayList<>();
        List<Integer> chunks = new ArrayList<>();
        boolean prefillOnly = !profile.chunkedPrefill()
                && !waiting.isEmpty()
                && running.size() < profile.maxNumSeqs()
                && waiting.peek().target <= budget;
        long preemptionsBefore = preemptions;
        if (!prefillOnly) {
            List<Sequence> scheduled = new ArrayList<>();
            boolean stop = false;
            for (Sequence seq : List.copyOf(running)) {
                if (!stop && seq.inBatch && !seq.prefilling() && budget > 0) {
                    stop = !reserve(seq, seq.computed + 1, scheduled);
                    if (!stop) {
                        decodes.add(seq);
                        scheduled.add(seq);
                        budget--;
                    }
                }
            }
            for (Sequence seq : List.copyOf(running)) {
                if (!stop && seq.inBatch && seq.prefilling() && budget > 0) {
                    int chunk = Math.min(seq.target - seq.computed, budget);
                    stop = !reserve(seq, seq.computed + chunk, scheduled);
                    if (!stop) {
                        prefills.add(seq);
                        chunks.add(chunk);
                        scheduled.add(seq);
                        budget -= chunk;
                    }
                }
            }
        }
        // as vLLM: no admission in a step that had to preempt
        if ((profile.chunkedPrefill() || prefillOnly) && preemptions == preemptionsBefore) {
            while (!waiting.isEmpty() && running.size() < profile.maxNumSeqs() && budget > 0) {
                Sequence next = waiting.peek();
                List<KvCache.Block> hit = kv.lookup(next.blockHashes, next.target - 1);
                int cachedTokens = hit.size() * KvCache.BLOCK_TOKENS;
                int chunk = Math.min(next.target - cachedTokens, budget);
                if (!profile.chunkedPrefill() && next.target - cachedTokens > budget
                        || !kv.admit(next.blocks, hit, cachedTokens + chunk)) {
                    break;
                }
                waiting.poll();
                prefixCacheQueries += next.target;
                prefixCacheHits += cachedTokens;
                next.computed = cachedTokens;
                next.cachedBlocks = hit.size();
                if (next.emitted == 0) {
                    // vLLM reports the hit of the scheduling that computes the prompt, not of a re-run after preemption
                    next.generation.prefixCached(cachedTokens);
                }
                next.inBatch = true;
                running.add(next);
                prefills.add(next);
                chunks.add(chunk);
                budget -= chunk;
            }
        }
        int prefillTokens = 0;
        double attentionPairs = 0;
        for (int i = 0; i < prefills.size(); i++) {
            int chunk = chunks.get(i);
            prefillTokens += chunk;
            attentionPairs += chunk * (prefills.get(i).computed + chunk / 2.0);
        }
        long contextTokens = 0;
        for (Sequence seq : decodes) {
            contextTokens += seq.promptTokens + seq.emitted;
        }
        long durationNs = profile.stepNs(prefillTokens, attentionPairs, decodes.size(), contextTokens);
        return new Step(decodes, prefills, chunks, durationNs, profile.stepCpuNs(prefillTokens, decodes.size()));
    }

    /**
     * Blocks for {@code seq} to hold {@code tokens} tokens, preempting the newest running requests not
     * in this step until they fit; false when {@code seq} itself had to go.
     */
    private boolean reserve(Sequence seq, int tokens, List<Sequence> scheduled) {
        while (!kv.grow(seq.blocks, tokens)) {
            Sequence victim = null;
            for (int i = running.size() - 1; i >= 0 && victim == null; i--) {
                if (!scheduled.contains(running.get(i))) {
                    victim = running.get(i);
                }
            }
            preempt(victim);
            if (victim == seq) {
                return false;
            }
        }
        return true;
    }

    private void preempt(Sequence seq) {
        preemptions++;
        running.remove(seq);
        kv.free(seq.blocks);
        seq.inBatch = false;
        seq.computed = 0;
        seq.cachedBlocks = 0;
        // recompute: the prompt and every token already sent, before the next one
        seq.target = seq.promptTokens + seq.emitted;
        waiting.addFirst(seq);
    }

    /** Applies a step at its end: one token to every decoding request, the first token to each finished prefill. */
    void complete(Step step, long endNs) {
        for (Sequence seq : step.decodes()) {
            seq.computed++;
            seq.emit(endNs);
        }
        for (int i = 0; i < step.prefills().size(); i++) {
            Sequence seq = step.prefills().get(i);
            seq.computed += step.chunks().get(i);
            seq.cachedBlocks = kv.cacheFull(seq.blocks, seq.blockHashes, seq.computed, seq.cachedBlocks);
            if (!seq.prefilling()) {
                seq.emit(endNs);
            }
        }
        running.removeIf(this::finishIfDone);
    }

    /** True, its blocks freed, when {@code seq} sent its last token or its client went away. */
    private boolean finishIfDone(Sequence seq) {
        if (seq.emitted < seq.outputTokens && !seq.generation.isDone()) {
            return false;
        }
        kv.free(seq.blocks);
        seq.inBatch = false;
        return true;
    }

    /**
     * One engine step: who decodes, whose prompt advances by how much, and what it costs: its modelled
     * time and the CPU time the engine thread computes for it.
     */
    record Step(List<Sequence> decodes, List<Sequence> prefills, List<Integer> chunks, long durationNs, long cpuNs) {}

    /** A request inside the engine. A prompt of 0 tokens still needs one step to produce its first token. */
    static final class Sequence {
        final Generation generation;
        final int promptTokens;
        final int outputTokens;
        /** Chained hashes of the prompt's full blocks ({@link KvCache#blockHashes}); none without prefix caching. */
        final long[] blockHashes;
        /** The KV blocks it holds while running. */
        final List<KvCache.Block> blocks = new ArrayList<>();
        /** Tokens to compute before the next token: the prompt, or after a preemption the prompt and the tokens sent. */
        int target;
        /** Tokens whose KV it holds. */
        int computed;
        /** Leading blocks already offered to the prefix cache. */
        int cachedBlocks;

        int emitted;
        /** In the running batch (not waiting, not finished). */
        boolean inBatch;

        Sequence(Generation generation, long[] blockHashes) {
            this.generation = generation;
            this.promptTokens = Math.max(1, generation.promptTokens());
            this.outputTokens = generation.maxTokens();
            this.blockHashes = blockHashes;
            this.target = promptTokens;
        }

        boolean prefilling() {
            return computed < target;
        }

        void emit(long dueNs) {
            emitted++;
            generation.emit(1, dueNs);
        }
    }
}
