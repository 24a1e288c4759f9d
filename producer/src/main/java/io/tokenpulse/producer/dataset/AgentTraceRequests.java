package io.tokenpulse.producer.dataset;

import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;

/**
 * The requests an agent trace drew, as the list {@link Dataset#sample} returns, with the graph
 * between them ({@link #step}): the load generator sends each when its parents answered, not at a
 * precomputed time. A copy of this list into another {@code List} loses the graph, so it is passed
 * on as drawn.
 *
 * <p>Immutable.
 */
public final class AgentTraceRequests extends AbstractList<SampledRequest> implements RandomAccess {

    private final List<SampledRequest> requests;
    private final List<AgentStep> steps;

    /** @throws IllegalArgumentException unless there is one step per request */
    public AgentTraceRequests(List<SampledRequest> requests, List<AgentStep> steps) {
        if (requests.size() != steps.size()) {
            throw new IllegalArgumentException("bug: one step per request");
        }
        this.requests = List.copyOf(requests);
        this.steps = List.copyOf(steps);
    }

    @Override
    public SampledRequest get(int index) {
        return requests.get(index);
    }

    @Override
    public int size() {
        return requests.size();
    }

    /** Where request {@code index} sits in its session's graph. */
    public AgentStep step(int index) {
        return steps.get(index);
    }
}
