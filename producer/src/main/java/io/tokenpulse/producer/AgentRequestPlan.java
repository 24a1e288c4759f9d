package io.tokenpulse.producer;

import io.tokenpulse.producer.dataset.AgentStep;
import io.tokenpulse.producer.dataset.AgentTraceRequests;
import io.tokenpulse.producer.dataset.SampledRequest;
import io.tokenpulse.producer.schedule.AgentGraphSchedule;
import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * The requests of an agent trace this shard sends, each handed out when it became due
 * ({@link AgentGraphSchedule}): the sessions whose ordinal this shard owns, whole, so that every
 * parent's end is seen by the shard that sends its children. A request's {@link PlannedRequest#offsetNs()}
 * is when it became due (its parents' end plus its tool time), so send lateness and the detailed
 * file's scheduled time are measured against that, as a trace's are against the trace time.
 *
 * <p>A request whose parent failed is not sent: when it is due, it goes to the {@link SendPlan.NotSent}
 * given at the start with the reason {@link #PARENT_FAILED}, and its recorded failure ends it like an
 * answer, so its own children follow it (decision 0010).
 *
 * <p>Threading: the scheduler iterates it (blocking in {@link #hasNext} until a request is due) and
 * hears of the requests not sent; the listeners from {@link #watching} report ends from the I/O threads. An interrupt while waiting ends
 * the iteration with the thread's interrupt status set, which the drain after it reads as a stop.
 */
final class AgentRequestPlan extends LookaheadPlan {

    /** The failure reason of a request not sent because a request it waits for failed. */
    static final String PARENT_FAILED = "parent_failed: not sent, a request it waits for failed";

    private final AgentGraphSchedule schedule;
    private final SampledRequest[] samples;
    private final long[] plannedOffsetsNs;
    private long startNs;
    private NotSent notSent;

    private AgentRequestPlan(AgentGraphSchedule schedule, SampledRequest[] samples, long[] plannedOffsetsNs) {
        this.schedule = schedule;
        this.samples = samples;
        this.plannedOffsetsNs = plannedOffsetsNs;
    }

    /** The plan of {@code shard}: the sessions {@code s} with {@code shard.owns(s)}. */
    static AgentRequestPlan of(AgentTraceRequests requests, Shard shard) {
        int n = requests.size();
        int[][] parents = new int[n][];
        long[] toolTimeNs = new long[n];
        long[] offsetsNs = new long[n];
        boolean[] sends = new boolean[n];
        SampledRequest[] samples = new SampledRequest[n];
        for (int i = 0; i < n; i++) {
            AgentStep step = requests.step(i);
            parents[i] = step.parents();
            toolTimeNs[i] = step.toolTimeNs();
            offsetsNs[i] = requests.get(i).arrivalOffsetNs().orElse(0);
            sends[i] = shard.owns(step.session());
            samples[i] = sends[i] ? requests.get(i) : null;
        }
        long[] planned = IntStream.range(0, n)
                .filter(i -> sends[i])
                .mapToLong(i -> offsetsNs[i])
                .sorted()
                .toArray();
        return new AgentRequestPlan(new AgentGraphSchedule(parents, toolTimeNs, offsetsNs, sends), samples, planned);
    }

    @Override
    public boolean ownTimes() {
        return true;
    }

    @Override
    public int plannedSize() {
        return schedule.size();
    }

    @Override
    public long[] plannedOffsetsNs() {
        return Arrays.copyOf(plannedOffsetsNs, plannedOffsetsNs.length);
    }

    @Override
    public void start(long startNs, NotSent notSent) {
        this.startNs = startNs;
        this.notSent = notSent;
        schedule.start(startNs);
    }

    /** Blocks until a request is due; null when none is left or the thread was interrupted. */
    @Override
    PlannedRequest findNext() {
        while (true) {
            AgentGraphSchedule.Due due;
            try {
                due = schedule.awaitNext();
            } catch (InterruptedException e) {
                // Iterator cannot throw it: keep the status for the dispatcher's next sleep and the drain.
                Thread.currentThread().interrupt();
                return null;
            }
            if (due == null) {
                return null;
            }
            SampledRequest sample = samples[due.index()];
            samples[due.index()] = null; // sent once: let the prompt go
            PlannedRequest request = new PlannedRequest(due.index(), due.dueNs() - startNs, sample);
            if (!due.parentFailed()) {
                return request;
            }
            notSent.notSent(request, PARENT_FAILED);
        }
    }

    @Override
    public RequestStream.EndListener watching(PlannedRequest request, RequestStream.EndListener ended) {
        return (outcome, endNs) -> {
            try {
                ended.ended(outcome, endNs);
            } finally {
                // the end the request's records carry, so a child is never due before it
                schedule.ended(request.index(), endNs, !outcome.success());
            }
        };
    }
}
