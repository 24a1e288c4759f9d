package io.tokenpulse.aggregator.report;

import io.tokenpulse.aggregator.metrics.PrefixCache;
import io.tokenpulse.aggregator.metrics.ReasoningResult;
import java.util.Optional;

/**
 * What a run prints inside vLLM's block beyond its plain lines, each only when the run has it.
 *
 * @param reasoning   a reasoning run's "Time to First Output Token" section (extension)
 * @param prefixCache the prefix-cache lines after the throughputs, when the server reported
 *                    {@code cached_tokens} (extension, vllm#46938)
 * @param probes      the probes, whose lines current vLLM prints after the throughputs
 */
public record BlockExtensions(
        Optional<ReasoningResult> reasoning, Optional<PrefixCache> prefixCache, Optional<ProbeReport> probes) {

    /** A run with none of them: vLLM's block as it is. */
    public static final BlockExtensions NONE =
            new BlockExtensions(Optional.empty(), Optional.empty(), Optional.empty());

    public BlockExtensions withReasoning(Optional<ReasoningResult> r) {
        return new BlockExtensions(r, prefixCache, probes);
    }

    public BlockExtensions withPrefixCache(Optional<PrefixCache> c) {
        return new BlockExtensions(reasoning, c, probes);
    }

    public BlockExtensions withProbes(Optional<ProbeReport> p) {
        return new BlockExtensions(reasoning, prefixCache, p);
    }
}
