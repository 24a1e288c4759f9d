package io.tokenpulse.aggregator.metrics;

/**
 * A reasoning run's figures (extension): over its successful requests, how many thought, their output
 * split into thinking and answer, and the time to first output token.
 *
 * @param requests        successful requests that thought
 * @param reasoningTokens output tokens that were thinking
 * @param answerTokens    total output tokens minus {@code reasoningTokens}
 * @param ttfo            time to first output token of the successful requests whose answer started
 */
public record ReasoningResult(long requests, long reasoningTokens, long answerTokens, LatencyStats ttfo) {

    /**
     * The name of the time to first output token in summaries and result keys ({@code mean_ttfo_ms}):
     * AIPerf's short name (TTFO) for the first non-reasoning token; vLLM has none.
     */
    public static final String TTFO_KEY = "ttfo";

    public ReasoningResult {
        if (requests < 1 || reasoningTokens < 0 || answerTokens < 0) {
            throw new IllegalArgumentException("need requests >= 1 and token counts >= 0, got " + requests + ", "
                    + reasoningTokens + ", " + answerTokens);
        }
    }
}
