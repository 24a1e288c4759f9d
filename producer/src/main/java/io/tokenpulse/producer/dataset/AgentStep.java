package io.tokenpulse.producer.dataset;

import java.util.Arrays;

/**
 * Where one request of an agent trace ({@code --dataset-name agent-trace}) sits in its session's
 * graph: what it waits for before it is sent.
 *
 * @param session the session's ordinal in the draw (0, 1, ...): a session is sent whole by one shard
 * @param parents the {@link SampledRequest#index()} of each request whose answer it waits for, all
 *     earlier in the draw; empty for a request sent at its own time ({@link SampledRequest#arrivalOffsetNs()})
 * @param toolTimeNs how long after the last of its parents ended it is due (the trace's {@code delay},
 *     the agent's tool or think time, times {@code --trace-time-scale}); 0 for a request without parents
 */
public record AgentStep(int session, int[] parents, long toolTimeNs) {

    public AgentStep {
        parents = parents.clone();
        if (session < 0 || toolTimeNs < 0) {
            throw new IllegalArgumentException("session and toolTimeNs must be >= 0");
        }
    }

    @Override
    public int[] parents() {
        return parents.clone();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof AgentStep step
                && step.session == session
                && step.toolTimeNs == toolTimeNs
                && Arrays.equals(step.parents, parents);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(parents) + Long.hashCode(toolTimeNs) * 17 + session;
    }

    @Override
    public String toString() {
        return "AgentStep[session=" + session + ", parents=" + Arrays.toString(parents) + ", toolTimeNs=" + toolTimeNs
                + "]";
    }
}
