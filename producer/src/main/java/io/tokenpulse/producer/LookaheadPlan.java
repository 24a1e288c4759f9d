package io.tokenpulse.producer;

import java.util.NoSuchElementException;

/**
 * A {@link SendPlan} that finds its next request in {@link #hasNext}, holding it until {@link #next}
 * hands it out: the iteration both plans share, which only differ in how the next request is found.
 */
abstract class LookaheadPlan implements SendPlan {

    private PlannedRequest next;

    @Override
    public final boolean hasNext() {
        if (next == null) {
            next = findNext();
        }
        return next != null;
    }

    @Override
    public final PlannedRequest next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        PlannedRequest planned = next;
        next = null;
        return planned;
    }

    /** The next request to send, or null when there is none (for now: asked again on the next hasNext). */
    abstract PlannedRequest findNext();
}
