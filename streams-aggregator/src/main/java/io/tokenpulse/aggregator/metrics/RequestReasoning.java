package io.tokenpulse.aggregator.metrics;

import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * What a reasoning model's request adds to its {@link RequestValues} (extension; vLLM has none): kept
 * beside them rather than in them, so that the accumulator's serialized state stays as it is.
 *
 * @param ttfoNs          time to first output token: the first event with answer text (not thinking)
 *                        minus sent; empty when no answer text arrived
 * @param events          streamed events that carried thinking
 * @param reasoningTokens the thinking's share of the output tokens; empty when unknown
 */
public record RequestReasoning(OptionalLong ttfoNs, int events, OptionalInt reasoningTokens) {

    public RequestReasoning {
        if (ttfoNs.orElse(0) < 0 || events < 0 || reasoningTokens.orElse(0) < 0) {
            throw new IllegalArgumentException("need ttfoNs, events and reasoning tokens >= 0, got " + ttfoNs + ", "
                    + events + ", " + reasoningTokens);
        }
    }

    /** Whether the request thought: it streamed thinking, or its server counted reasoning tokens. */
    public boolean thought() {
        return events > 0 || reasoningTokens.orElse(0) > 0;
    }
}
