package io.tokenpulse.simulator.engine;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The scheduler of a continuous-batching engine, as vLLM's works with chunked prefill: each step
 * first gives every decoding request one token of the budget, then continues the prompts already
 * being prefilled, then admits waiting requests first come first served while the batch has room
 * ({@code maxNumSeqs}) and the step has budget left. Without chunked prefill a step either prefills
 * whole prompts or decodes, never both. Time is not its business: {@link BatchingModel} runs it.
 *
 * <p>Threading: confined to the engine's one thread.
 */
final class BatchingEngine {

    private final EngineProfile profile;
    private final ArrayDeque<Sequence> waiting = new ArrayDeque<>();
    private final List<Sequence> running = new ArrayList<>();

    BatchingEngine(EngineProfile profile) {
        this.profile = profile;
    }

    void add(Generation generation) {
        waiting.add(new Sequence(generation));
    }

    boolean idle() {
        return waiting.isEmpty() && running.isEmpty();
    }

    int runningCount() {
        return running.size();
    }

    int waitingCount() {
        return waiting.size();
    }

    /**
     * The queues and the KV cache now. The cache holds {@code maxModelLen} tokens, the smallest pool
     * vLLM starts with (one sequence of full length): the scheduler does not limit admission by it,
     * so a batch beyond it shows as full (1.0) rather than being preempted.
     */
    EngineState state() {
        long kvTokens = 0;
        for (Sequence seq : running) {
            kvTokens += seq.prefilled + seq.emitted;
        }
        return new EngineState(
                running.size(), waiting.size(), Math.min(1.0, kvTokens / (double) profile.maxModelLen()));
    }

    /** The next step's batch, or null when there is nothing to run. */
    Step plan() {
        running.removeIf(seq -> seq.generation.isDone());
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
                && waiting.peek().promptTokens <= budget;
        if (!prefillOnly) {
            for (Sequence seq : running) {
                if (seq.prefilled == seq.promptTokens && budget > 0) {
                    decodes.add(seq);
                    budget--;
                }
            }
            for (Sequence seq : running) {
                if (seq.prefilled < seq.promptTokens && budget > 0) {
                    int chunk = Math.min(seq.promptTokens - seq.prefilled, budget);
                    prefills.add(seq);
                    chunks.add(chunk);
                    budget -= chunk;
                }
            }
        }
        if (profile.chunkedPrefill() || prefillOnly) {
            while (!waiting.isEmpty() && running.size() < profile.maxNumSeqs() && budget > 0) {
                Sequence next = waiting.peek();
                if (!profile.chunkedPrefill() && next.promptTokens > budget) {
                    break;
                }
                waiting.poll();
                running.add(next);
                int chunk = Math.min(next.promptTokens, budget);
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
            attentionPairs += chunk * (prefills.get(i).prefilled + chunk / 2.0);
        }
        long contextTokens = 0;
        for (Sequence seq : decodes) {
            contextTokens += seq.promptTokens + seq.emitted;
        }
        long durationNs = profile.stepNs(prefillTokens, attentionPairs, decodes.size(), contextTokens);
        return new Step(decodes, prefills, chunks, durationNs);
    }

    /** Applies a step at its end: one token to every decoding request, the first token to each finished prefill. */
    void complete(Step step, long endNs) {
        for (Sequence seq : step.decodes()) {
            seq.emit(endNs);
        }
        for (int i = 0; i < step.prefills().size(); i++) {
            Sequence seq = step.prefills().get(i);
            seq.prefilled += step.chunks().get(i);
            if (seq.prefilled == seq.promptTokens) {
                seq.emit(endNs);
            }
        }
        running.removeIf(seq -> seq.emitted >= seq.outputTokens || seq.generation.isDone());
    }

    /** One engine step: who decodes, whose prompt advances by how much, and what it costs. */
    record Step(List<Sequence> decodes, List<Sequence> prefills, List<Integer> chunks, long durationNs) {}

    /** A request inside the engine. A prompt of 0 tokens still needs one step to produce its first token. */
    static final class Sequence {
        final Generation generation;
        final int promptTokens;
        final int outputTokens;
        int prefilled;
        int emitted;

        Sequence(Generation generation) {
            this.generation = generation;
            this.promptTokens = Math.max(1, generation.promptTokens());
            this.outputTokens = generation.maxTokens();
        }

        void emit(long dueNs) {
            emitted++;
            generation.emit(1, dueNs);
        }
    }
}
