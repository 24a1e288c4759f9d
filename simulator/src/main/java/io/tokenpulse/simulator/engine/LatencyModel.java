package io.tokenpulse.simulator.engine;

/**
 * Decides when the simulator streams each token of a request. The server owns the wire format; a
 * model only calls {@link Generation#emit} at the times it chooses, so a continuous-batching model
 * can replace the deterministic one without touching the HTTP side.
 *
 * <p>Threading: {@link #generate} is called on the connection's event loop and must not block;
 * schedule work on {@link Generation#scheduler()}.
 */
public interface LatencyModel {

    /** Starts producing the tokens of one request; returns at once. */
    void generate(Generation generation);

    /**
     * What the engine holds now, for the server's {@code /metrics}. A model without a scheduler has
     * no queue, no KV cache and no prefix cache: every request in flight runs, every prompt token is
     * a query and a miss, nothing is preempted.
     *
     * @param inFlight     requests the server is answering now
     * @param promptTokens prompt tokens of the requests it received so far
     */
    default EngineState state(int inFlight, long promptTokens) {
        return new EngineState(inFlight, 0, 0, promptTokens, 0, 0);
    }

    /** Called once when the server stops: releases the model's own threads, if it has any. */
    default void close() {}
}
