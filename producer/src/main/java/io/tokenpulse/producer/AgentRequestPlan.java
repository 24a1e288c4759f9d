package io.tokenpulse.producer;

import io.tokenpulse.producer.dataset.AgentStep;
import io.tokenpulse.producer.dataset.AgentTraceRequests;
import io.tokenpulse.producer.dataset.SampledRequest;
import io.tokenpulse.producer.http.StreamError;
import io.tokenpulse.producer.http.StreamListener;
import io.tokenpulse.producer.schedule.AgentGraphSchedule;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.stream.IntStream;

/**
 * The requests of an agent trace this shard sends, each handed out when it became due
 * ({@link AgentGraphSchedule}): the sessions whose ordinal this shard owns, whole, so that every
 * parent's end is seen by the shard that sends its children. A request's {@link PlannedRequest#offsetNs()}
 * is when it became due (its parents' end plus its tool time), so send lateness and the detailed
 * file's scheduled time are measured against that, as a trace's are against the trace time.
 *
 * <p>Threading: the scheduler iterates it (blocking in {@link #hasNext} until a request is due); the
 * listeners from {@link #watching} report ends from the I/O threads. An interrupt while waiting ends
 * the iteration with the thread's interrupt status set, which the drain after it reads as a stop.
 */
final class AgentRequestPlan implements SendPlan {

    private final AgentGraphSchedule schedule;
    private final SampledRequest[] samples;
    private final long[] plannedOffsetsNs;
    private long startNs;
    private PlannedRequest next;

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
    public void start(long startNs) {
        this.startNs = startNs;
        schedule.start(startNs);
    }

    @Override
    public boolean hasNext() {
        if (next != null) {
            return true;
        }
        AgentGraphSchedule.Due due;
        try {
            due = schedule.awaitNext();
        } catch (InterruptedException e) {
            // Iterator cannot throw it: keep the status for the dispatcher's next sleep and the drain.
            Thread.currentThread().interrupt();
            return false;
        }
        if (due == null) {
            return false;
        }
        SampledRequest sample = samples[due.index()];
        samples[due.index()] = null; // sent once: let the prompt go
        next = new PlannedRequest(due.index(), due.dueNs() - startNs, sample);
        return true;
    }

    @Override
    public PlannedRequest next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        PlannedRequest planned = next;
        next = null;
        return planned;
    }

    @Override
    public StreamListener watching(PlannedRequest request, StreamListener stream) {
        return new EndWatcher(request.index(), stream);
    }

    /**
     * Passes every call on to the request's own listener, then tells the schedule when the request
     * ended, so that its children's due time is never before the end the listener recorded.
     */
    private final class EndWatcher implements StreamListener {

        private final int index;
        private final StreamListener stream;

        EndWatcher(int index, StreamListener stream) {
            this.index = index;
            this.stream = stream;
        }

        @Override
        public void onConnected(long connectNs) {
            stream.onConnected(connectNs);
        }

        @Override
        public void onRequestSent(long sentNs) {
            stream.onRequestSent(sentNs);
        }

        @Override
        public void onResponseStart(int status, Map<String, String> headers) {
            stream.onResponseStart(status, headers);
        }

        @Override
        public void onBytes(ByteBuffer bytes, long arrivalNs) {
            stream.onBytes(bytes, arrivalNs);
        }

        @Override
        public void onComplete(long completedNs) {
            try {
                stream.onComplete(completedNs);
            } finally {
                schedule.ended(index, completedNs);
            }
        }

        @Override
        public void onError(StreamError error) {
            try {
                stream.onError(error);
            } finally {
                // after the listener stamped its own end, so a child is never due before it
                schedule.ended(index, System.nanoTime());
            }
        }
    }
}
