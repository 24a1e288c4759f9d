package io.tokenpulse.simulator.engine;

import java.util.concurrent.ScheduledExecutorService;

/**
 * One request being generated, as a {@link LatencyModel} sees it. The stream ends by itself once
 * {@link #maxTokens()} tokens were emitted (finish reason {@code length}).
 *
 * <p>Threading: call {@link #emit} from {@link #scheduler()} (the connection's event loop); calls
 * from other threads are handed over to it.
 */
public interface Generation {

    /** The request's x-request-id, or one the server made up. */
    String requestId();

    /** Approximate prompt length in tokens. */
    int promptTokens();

    /**
     * The prompt's token ids as the server sees them, for the prefix cache; empty when the prompt
     * cannot be cached (an audio clip).
     */
    int[] promptIds();

    /** Tokens to generate: max_tokens or max_completion_tokens of the request. */
    int maxTokens();

    /** System.nanoTime() when the request was received. */
    long receivedNs();

    /** Runs the model's timers; timing on the connection's own event loop avoids a thread hop. */
    ScheduledExecutorService scheduler();

    /**
     * Streams the next {@code tokens} tokens as one event now.
     *
     * @param dueNs System.nanoTime() at which the model wanted the event sent, kept in the send log
     *              so the scheduler's lateness can be measured
     */
    void emit(int tokens, long dueNs);

    /**
     * The model found the prompt's first {@code tokens} tokens in its prefix cache (prefill computes only
     * the rest); the response reports them as {@code usage.prompt_tokens_details.cached_tokens}. Called
     * from the model's own thread; a model without a prefix cache never calls it, and the usage then has
     * no {@code prompt_tokens_details}, as vLLM without {@code --enable-prompt-tokens-details}.
     */
    default void prefixCached(int tokens) {}

    /** True once the client went away or the stream ended; the model should stop scheduling. */
    boolean isDone();
}
