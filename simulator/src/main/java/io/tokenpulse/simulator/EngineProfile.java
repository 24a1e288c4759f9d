package io.tokenpulse.simulator;

/**
 * The scheduler limits and cost constants of a simulated continuous-batching engine. One engine
 * step costs
 * <pre>
 *   stepMs = stepBaseMs
 *          + prefillMsPerToken * prefillTokens
 *          + attentionMsPerTokenPair * sum(chunk * (contextBefore + chunk / 2))   over prefill chunks
 *          + decodeMsPerSeq * decodeSeqs ^ decodeBatchExponent
 *          + contextMs * decodeContextTokens ^ contextExponent
 * </pre>
 * and a request waits {@code frontendMs} (the API server's parsing and tokenizing, which runs beside
 * the engine) before it joins the queue. {@code docs/simulator.md} derives the {@link #DEFAULT}
 * constants from seed {@code 001}.
 *
 * @param maxNumSeqs          most requests in the running batch (vLLM's --max-num-seqs)
 * @param maxBatchedTokens    token budget of one step: one per decoding request plus prefill chunks
 *                            (vLLM's --max-num-batched-tokens)
 * @param chunkedPrefill      true: long prompts are split across steps and share steps with decodes;
 *                            false: a step prefills whole prompts only, and decodes wait for it
 * @param maxModelLen         context length: prompt plus output tokens may not exceed it
 */
public record EngineProfile(int maxNumSeqs, int maxBatchedTokens, boolean chunkedPrefill, int maxModelLen,
                            double frontendMs, double stepBaseMs, double prefillMsPerToken,
                            double attentionMsPerTokenPair, double decodeMsPerSeq, double decodeBatchExponent,
                            double contextMs, double contextExponent) {

    /** Calibrated to seed 001 (an 80-token and a 10 000-token load sweep, single prompts to 128k). */
    public static final EngineProfile DEFAULT = new EngineProfile(256, 512, true, 131_072,
            245.6, 43.6, 0.5652, 7.52e-5, 1.000, 1.058, 0.962, 0.323);

    public EngineProfile {
        if (maxNumSeqs < 1) {
            throw new IllegalArgumentException("max-num-seqs must be >= 1, got " + maxNumSeqs);
        }
        if (maxBatchedTokens < maxNumSeqs) {
            throw new IllegalArgumentException("max-num-batched-tokens (" + maxBatchedTokens
                    + ") must be >= max-num-seqs (" + maxNumSeqs + "): every running request decodes one token per step");
        }
        if (maxModelLen < 2) {
            throw new IllegalArgumentException("max-model-len must be >= 2, got " + maxModelLen);
        }
        double[] costs = {frontendMs, stepBaseMs, prefillMsPerToken, attentionMsPerTokenPair, decodeMsPerSeq,
                decodeBatchExponent, contextMs, contextExponent};
        for (double cost : costs) {
            if (!(cost >= 0) || Double.isInfinite(cost)) {
                throw new IllegalArgumentException("engine cost constants must be finite and >= 0, got " + cost);
            }
        }
    }

    public EngineProfile withMaxNumSeqs(int seqs) {
        return new EngineProfile(seqs, Math.max(maxBatchedTokens, seqs), chunkedPrefill, maxModelLen, frontendMs,
                stepBaseMs, prefillMsPerToken, attentionMsPerTokenPair, decodeMsPerSeq, decodeBatchExponent,
                contextMs, contextExponent);
    }

    public EngineProfile withChunkedPrefill(boolean chunked) {
        return new EngineProfile(maxNumSeqs, maxBatchedTokens, chunked, maxModelLen, frontendMs, stepBaseMs,
                prefillMsPerToken, attentionMsPerTokenPair, decodeMsPerSeq, decodeBatchExponent, contextMs,
                contextExponent);
    }

    /** The same engine {@code factor} times faster: every time constant divided by it. */
    public EngineProfile speedUp(double factor) {
        if (!(factor > 0) || Double.isInfinite(factor)) {
            throw new IllegalArgumentException("speedup must be a finite number > 0, got " + factor);
        }
        return new EngineProfile(maxNumSeqs, maxBatchedTokens, chunkedPrefill, maxModelLen, frontendMs / factor,
                stepBaseMs / factor, prefillMsPerToken / factor, attentionMsPerTokenPair / factor,
                decodeMsPerSeq / factor, decodeBatchExponent, contextMs / factor, contextExponent);
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
                + (decodeContextTokens == 0 ? 0 : contextMs * Math.pow(decodeContextTokens, contextExponent));
        return Math.round(ms * 1e6);
    }
}
