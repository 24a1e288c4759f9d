package io.tokenpulse.cli.options;

import io.tokenpulse.simulator.engine.EngineProfile;
import io.tokenpulse.simulator.engine.EngineProfileBuilder;
import picocli.CommandLine.Option;

/** {@code simulate}'s engine: batch size, chunked prefill, context length, KV cache, prefix cache, CPU per token. */
public final class SimulatorEngineOptions {

    @Option(
            names = "--max-num-seqs",
            description = "Default and cpu profiles: most requests in the running batch (default: 256; cpu: 8).")
    Integer maxNumSeqs;

    @Option(
            names = "--cpu-per-token-us",
            paramLabel = "US",
            description = "Default and cpu profiles: CPU time the engine thread computes (not sleeps) per token of "
                    + "a step, so a step lasts at least that times its tokens and runs slower when other "
                    + "processes take the core (default: 0; cpu: 1250, ~800 tokens/s at 8 sequences on a free core).")
    public Double cpuPerTokenUs;

    @Option(
            names = "--no-chunked-prefill",
            description = "Default and cpu profiles: prefill whole prompts in steps of their own.")
    boolean noChunkedPrefill;

    @Option(names = "--max-model-len", description = "Context length; longer prompts get 400 (default: 131072).")
    public Integer maxModelLen;

    @Option(
            names = "--kv-cache-tokens",
            paramLabel = "N",
            description =
                    "Default and cpu profiles: tokens the KV cache holds, at least --max-model-len; running requests "
                            + "beyond it are preempted and recomputed, as vLLM does (default: --max-model-len).")
    Integer kvCacheTokens;

    @Option(
            names = "--no-prefix-cache",
            description =
                    "Default and cpu profiles: no prefix caching (vLLM's --no-enable-prefix-caching): prompts that "
                            + "share a prefix are prefilled in full every time.")
    boolean noPrefixCache;

    /**
     * {@code base} (the --profile's engine) shaped by these options and sped up {@code speedup} times;
     * a bad --cpu-per-token-us is an {@link IllegalArgumentException}.
     */
    public EngineProfile engine(EngineProfile base, double speedup) {
        int contextLength = maxModelLen == null ? base.maxModelLen() : maxModelLen;
        EngineProfile engine = EngineProfileBuilder.builder(base)
                .maxModelLen(contextLength)
                .kvCacheTokens(kvCacheTokens == null ? contextLength : kvCacheTokens)
                .prefixCaching(!noPrefixCache)
                .build();
        if (maxNumSeqs != null) {
            engine = engine.withMaxNumSeqs(maxNumSeqs);
        }
        if (noChunkedPrefill) {
            engine = engine.withChunkedPrefill(false);
        }
        if (cpuPerTokenUs != null) {
            if (!(cpuPerTokenUs >= 0) || cpuPerTokenUs.isInfinite()) {
                throw new IllegalArgumentException(
                        "--cpu-per-token-us must be a finite number >= 0, got " + cpuPerTokenUs);
            }
            engine = engine.withCpuUsPerToken(cpuPerTokenUs);
        }
        return engine.speedUp(speedup);
    }
}
