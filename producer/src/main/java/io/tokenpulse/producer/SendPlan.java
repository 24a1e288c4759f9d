package io.tokenpulse.producer;

import io.tokenpulse.producer.schedule.RpsStep;
import java.util.Iterator;
import java.util.List;

/**
 * The requests one shard sends, in the order they become due, as the {@link Dispatcher} takes them:
 * on a schedule known before the run ({@link RequestPlan}) or one that the answers decide
 * ({@link AgentRequestPlan}).
 *
 * <p>Not thread-safe: the scheduler alone iterates it ({@link #watching} may be called on it too).
 */
interface SendPlan extends Iterator<PlannedRequest> {

    /** Whether requests go at their own times (a trace) rather than on the arrival schedule. */
    boolean ownTimes();

    /** Whether the samples are multi-turn sessions, each sent as a {@link Session}. */
    default boolean sessions() {
        return false;
    }

    /** Requests this shard will send, or -1 when the duration decides. */
    int plannedSize();

    /** A ramp-up's whole-rate steps over the whole run's schedule; empty without one or when the duration decides. */
    default List<RpsStep> rpsSteps() {
        return List.of();
    }

    /**
     * The offsets (ns after the schedule start) of the requests this shard will send, in order, or the
     * earliest each could be due when answers decide.
     *
     * @throws IllegalStateException in duration mode, where they are drawn as the run goes
     */
    long[] plannedOffsetsNs();

    /**
     * The schedule starts at {@code startNs} ({@link Ticker#nanoTime()}), just before the first request is
     * asked for.
     *
     * @param notSent told of each request the plan decides not to send, instead of handing it out
     */
    default void start(long startNs, NotSent notSent) {}

    /**
     * What to tell when {@code request} ended: {@code ended} itself, or a listener that also tells the plan
     * (so that requests waiting for its answer become due). A request the plan did not send reports its end
     * here too.
     */
    default RequestStream.EndListener watching(PlannedRequest request, RequestStream.EndListener ended) {
        return ended;
    }

    /**
     * Told of a request the plan will not send (an agent trace's child of a failed parent), on the scheduler
     * thread, when it was due; the request is to be recorded as failed with {@code reason}.
     */
    @FunctionalInterface
    interface NotSent {
        void notSent(PlannedRequest request, String reason);
    }
}
