package io.tokenpulse.simulator.engine;

import io.soabase.recordbuilder.core.RecordBuilder;

/**
 * The scheduler limits and cost constants of a simulated continuous-batching engine. One engine
 * step costs
 * <pre>
 *   stepMs = stepBaseMs
 *          + prefillMsPerToken * prefillTokens
 *          + attentionMsPerTokenPair * sum(chunk * (contextBefore + chunk / 2))   over prefill chunks
 *          + decodeMsPerSeq * decodeSeqs ^ decodeBatchExponent
 *          + largeBatchMs * clamp((decodeSeqs - largeBatchFromSeqs) / (largeBatchToSeqs - largeBatchFromSeqs), 0, 1)
 *          + contextMs * decodeContextTokens ^ contextExponent
 * </pre>
 * unless its CPU takes longer: with {@code cpuUsPerToken} > 0 the engine thread computes for that much
 * of its own CPU time per token in the step (each decoding sequence's token and each prefill token),
 * as a CPU engine such as llama.cpp does, and the step ends when that work is done. A request waits
 * {@code frontendMs} (the API server's parsing and tokenizing, which runs beside the engine) before it
 * joins the queue. {@code docs/simulator.md} derives the {@link #DEFAULT}
 * constants from vLLM's published load sweep.
 *
 * @param maxNumSeqs          most requests in the running batch (vLLM's --max-num-seqs)
 * @param maxBatchedTokens    token budget of one step: one per decoding request plus prefill chunks
 *                            (vLLM's --max-num-batched-tokens)
 * @param chunkedPrefill      true: long prompts are split across steps and share steps with decodes;
 *                            false: a step prefills whole prompts only, and decodes wait for it
 * @param maxModelLen         context length: prompt plus output tokens may not exceed it
 * @param kvCacheTokens       tokens the KV cache holds (vLLM's GPU blocks times the block size), at least one
 *                            request of {@code maxModelLen}; running requests beyond it are preempted
 * @param prefixCaching       true: full blocks of prompt tokens stay cached, and a prompt that starts with
 *                            cached blocks skips their prefill (vLLM's automatic prefix caching)
 * @param largeBatchMs        extra cost of a step decoding many sequences: the real engine changes regime
 *                            between {@code largeBatchFromSeqs} and {@code largeBatchToSeqs} decoding
 *                            sequences (its decode throughput falls there), and the model ramps it in linearly
 * @param cpuUsPerToken       CPU time (µs) the engine thread burns per token computed in a step; 0 for a
 *                            GPU engine, whose steps cost the host no CPU worth modelling
 */
@RecordBuilder
public record EngineProfile(
        int maxNumSeqs,
        int maxBatchedTokens,
        boolean chunkedPrefill,
        int maxModelLen,
        int kvCacheTokens,
        boolean prefixCaching,
        double frontendMs,
        double stepBaseMs,
        double prefillMsPerToken,
        double attentionMsPerTokenPair,
        double decodeMsPerSeq,
        double decodeBatchExponent,
        double largeBatchMs,
        int largeBatchFromSeqs,
        int largeBatchToSeqs,
        double contextMs,
        double contextExponent,
        double cpuUsPerToken)
        implements EngineProfileBuilder.With {

    /**
     * Calibrated to vLLM's published load sweep (an 80-token and a 10 000-token load sweep, single prompts to 128k). Its
     * prompts share no prefix and its batches never outgrow the cache, so neither the prefix cache nor
     * preemption changes those points ({@code BatchingModelTest}).
     */
    public static final EngineProfile DEFAULT = new EngineProfile(
            256, 512, true, 131_072, 131_072, true, 175.0, 44.9, 0.7174, 7.64e-5, 0.697, 0.788, 138.1, 32, 64, 0.859,
            0.345, 0);

    /**
     * A CPU engine on the simulator's host, like a llama.cpp server with 8 parallel slots: 8 sequences
     * per step, every step's time is the CPU it computes, 1 250 µs per token, so ~800 output tokens/s at a
     * full batch on one free core, and slower when the host's other processes take that core.
     */
    public static final EngineProfile CPU =
            new EngineProfile(8, 512, true, 131_072, 131_072, true, 0, 0, 0, 0, 0, 0, 0, 32, 64, 0, 0, 1250);

    public EngineProfile {
        if (maxNumSeqs < 1) {
            throw new IllegalArgumentException("max-num-seqs must be >= 1, got " + maxNumSeqs);
        }
        if (maxBatchedTokens < maxNumSeqs) {
            throw new IllegalArgumentException(
                    "max-num-batched-tokens (" + maxBatchedTokens + ") must be >= max-num-seqs (" + maxNumSeqs
                            + "): every running request decodes one token per step");
        }
        if (maxModelLen < 2) {
            throw new IllegalArgumentException("max-model-len must be >= 2, got " + maxModelLen);
        }
        if (kvCacheTokens < maxModelLen) {
            throw new IllegalArgumentException("the KV cache (" + kvCacheTokens
                    + " tokens) must hold one request of the context length (" + maxModelLen
                    + " tokens), as vLLM requires: give it more tokens or lower the context length");
        }
        if (largeBatchFromSeqs < 0 || largeBatchToSeqs <= largeBatchFromSeqs) {
            throw new IllegalArgumentException("the large-batch ramp needs 0 <= from < to sequences, got "
                    + largeBatchFromSeqs + " .. " + largeBatchToSeqs);
        }
        double[] costs = {
            frontendMs,
            stepBaseMs,
            prefillMsPerToken,
            attentionMsPerTokenPair,
            decodeMsPerSeq,
            decodeBatchExponent,
            largeBatchMs,
            contextMs,
            contextExponent,
            cpuUsPerToken
        };
        for (double cost : costs) {
            if (!(cost >= 0) || Double.isInfinite(cost)) {
                throw new IllegalArgumentException("engine cost constants must be finite and >= 0, got " + cost);
            }
        }
    }

    /** With {@code seqs} sequences per step and a token budget that holds at least one token of each. */
    public EngineProfile withMaxNumSeqs(int seqs) {
        return EngineProfileBuilder.builder(this)
                .maxNumSeqs(seqs)
                .maxBatchedTokens(Math.max(maxBatchedTokens, seqs))
                .build();
    }

    /** The same engine {@code factor} times faster: every time constant divided by it. */
    public EngineProfile speedUp(double factor) {
        if (!(factor > 0) || Double.isInfinite(factor)) {
            throw new IllegalArgumentException("speedup must be a finite number > 0, got " + factor);
        }
        return new EngineProfile(
                maxNumSeqs,
                maxBatchedTokens,
                chunkedPrefill,
                maxModelLen,
                kvCacheTokens,
                prefixCaching,
                frontendMs / factor,
                stepBaseMs / factor,
                prefillMsPerToken / factor,
                attentionMsPerTokenPair / factor,
                decodeMsPerSeq / factor,
                decodeBatchExponent,
                largeBatchMs / factor,
                largeBatchFromSeqs,
                largeBatchToSeqs,
                contextMs / factor,
                contextExponent,
                cpuUsPerToken / factor);
    }

    /** Tokens one step may schedule; without chunked prefill a whole prompt must fit, as in vLLM. */
    int stepTokenBudget() {
        return chunkedPrefill ? maxBatchedTokens : Math.max(maxBatchedTokens, maxModelLen);
    }

    long frontendNs() {
        return Math.round(frontendMs * 1e6);
    }

    /**
     * @param attentionTokenPairs sum over prefill chunks of chunk * (context before it + chunk / 2):
     *                            the query-key pairs causal attention computes
     */
    long stepNs(int prefillTokens, double attentionTokenPairs, int decodeSeqs, long decodeContextTokens) {
        double ms = stepBaseMs
                + prefillMsPerToken * prefillTokens
                + attentionMsPerTokenPair * attentionTokenPairs
                + (decodeSeqs == 0 ? 0 : decodeMsPerSeq * Math.pow(decodeSeqs, decodeBatchExponent))
                + largeBatchMs
                        * Math.min(
                                1,
                                Math.max(
                                        0,
                                        (decodeSeqs - largeBatchFromSeqs)
                                                / (double) (largeBatchToSeqs - largeBatchFromSeqs)))
                + (decodeContextTokens == 0 ? 0 : contextMs * Math.pow(decodeContextTokens, contextExponent));
        return Math.round(ms * 1e6);
    }

    /** CPU time the engine thread computes for a step of these tokens (decoding sequences and prefill tokens). */
    long stepCpuNs(int prefillTokens, int decodeSeqs) {
        return Math.round(cpuUsPerToken * 1e3 * (prefillTokens + decodeSeqs));
    }
}
