package io.tokenpulse.aggregator.metrics;

import java.util.Optional;

/**
 * Prompt tokens served from the server's prefix cache, as the server reported them per request
 * ({@code usage.prompt_tokens_details.cached_tokens}), over the successful requests that reported it.
 *
 * @param requests     successful requests whose server reported {@code cached_tokens}
 * @param cachedTokens the sum of their {@code cached_tokens}
 * @param promptTokens the sum of their prompt tokens
 * @param hitRate      {@code cachedTokens / promptTokens}, 0..1; 0 when {@code promptTokens} is 0
 * @see "docs/metrics.md, TokenPulse's own metrics: row prefix cache hit rate"
 */
public record PrefixCache(long requests, long cachedTokens, long promptTokens, double hitRate) {

    public PrefixCache {
        if (requests < 1 || cachedTokens < 0 || promptTokens < 0 || !(hitRate >= 0)) {
            throw new IllegalArgumentException("need requests >= 1 and counts, rate >= 0; got " + requests + ", "
                    + cachedTokens + ", " + promptTokens + ", " + hitRate);
        }
    }

    /** The accumulator's figures; empty when no request reported {@code cached_tokens}. */
    public static Optional<PrefixCache> of(MetricsAccumulator acc) {
        return acc.prefixCacheHitRate().isPresent()
                ? Optional.of(new PrefixCache(
                        acc.cacheReportingRequests(),
                        acc.totalCachedTokens(),
                        acc.cacheReportingPromptTokens(),
                        acc.prefixCacheHitRate().getAsDouble()))
                : Optional.empty();
    }
}
