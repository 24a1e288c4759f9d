package io.tokenpulse.producer.schedule;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * When each request of an agent trace is due: a request without parents at {@code start + its
 * offset}; a request with parents when the last of them ended plus its tool time. A parent with
 * several children makes them due together (fan-out); a child of several parents waits for all of
 * them (join). A child of a parent that failed is due all the same, marked {@link Due#parentFailed()}:
 * the caller does not send it and records it failed (decision 0010), which fails its own children in turn.
 *
 * <p>Threading: {@link #start} and {@link #awaitNext} on the scheduler thread, which alone touches the
 * graph; {@link #ended} from any thread (the I/O threads, as each response ends) only appends to a
 * lock-free queue and unparks the scheduler, so a request's end never waits for the scheduler. The
 * scheduler takes the ends off the queue, parked until the earliest due request is due or an end
 * arrives. Times are {@link System#nanoTime()}.
 */
public final class AgentGraphSchedule {

    /**
     * A request handed out: its index, when it became due (ns on the monotonic clock), and whether a
     * parent failed (then it is not to be sent).
     */
    public record Due(int index, long dueNs, boolean parentFailed) {

        /** A request whose parents all answered, or one without parents. */
        public Due(int index, long dueNs) {
            this(index, dueNs, false);
        }
    }

    /** An end reported by an I/O thread, waiting for the scheduler. */
    private record End(int index, long endNs, boolean failed) {}

    private final int[][] children;
    private final int[] parentsLeft;
    private final long[] lastParentEndNs;
    private final boolean[] parentFailed;
    private final long[] toolTimeNs;
    private final long[] rootOffsetsNs;
    private final boolean[] sends;
    private final boolean[] ended;
    private final int total;
    private final PriorityQueue<Due> due = new PriorityQueue<>(
            (a, b) -> a.dueNs() != b.dueNs() ? Long.compare(a.dueNs(), b.dueNs()) : a.index() - b.index());
    private final ConcurrentLinkedQueue<End> ends = new ConcurrentLinkedQueue<>();
    /** The thread in {@link #awaitNext}, for {@link #ended} to unpark; null before the first call. */
    private volatile Thread scheduler;

    private int handedOut;
    private boolean started;

    /**
     * @param parents for each request, the indices of the requests whose end it waits for (each
     *     smaller than its own index, so the graph has no cycle)
     * @param toolTimeNs for each request, how long after its last parent's end it is due
     * @param rootOffsetsNs for each request without parents, when it is due after the start (ignored for others)
     * @param sends which requests this schedule hands out (this shard's sessions); a request it does not
     *     send must not be the parent of one it does
     * @throws IllegalArgumentException when the arrays disagree in length or a parent is not earlier
     */
    public AgentGraphSchedule(int[][] parents, long[] toolTimeNs, long[] rootOffsetsNs, boolean[] sends) {
        int n = parents.length;
        if (toolTimeNs.length != n || rootOffsetsNs.length != n || sends.length != n) {
            throw new IllegalArgumentException("one parent list, tool time, offset and flag per request");
        }
        this.toolTimeNs = toolTimeNs.clone();
        this.rootOffsetsNs = rootOffsetsNs.clone();
        this.sends = sends.clone();
        this.ended = new boolean[n];
        this.parentsLeft = new int[n];
        this.lastParentEndNs = new long[n];
        this.parentFailed = new boolean[n];
        List<List<Integer>> childLists = new ArrayList<>(n);
        int count = 0;
        for (int i = 0; i < n; i++) {
            childLists.add(new ArrayList<>(1));
            if (toolTimeNs[i] < 0) {
                throw new IllegalArgumentException("request " + i + " has a negative tool time");
            }
            for (int parent : parents[i]) {
                if (parent < 0 || parent >= i) {
                    throw new IllegalArgumentException(
                            "request " + i + " names parent " + parent + ", not an earlier one");
                }
                if (sends[i] && !sends[parent]) {
                    throw new IllegalArgumentException(
                            "request " + i + " is sent but its parent " + parent + " is not");
                }
                childLists.get(parent).add(i);
            }
            parentsLeft[i] = parents[i].length;
            lastParentEndNs[i] = Long.MIN_VALUE;
            count += sends[i] ? 1 : 0;
        }
        this.children = childLists.stream()
                .map(list -> list.stream().mapToInt(Integer::intValue).toArray())
                .toArray(int[][]::new);
        this.total = count;
    }

    /** Requests this schedule hands out. */
    public int size() {
        return total;
    }

    /** Makes the requests without parents due at {@code startNs} plus their offsets; call once, first. */
    public void start(long startNs) {
        if (started) {
            throw new IllegalStateException("bug: the schedule started twice");
        }
        started = true;
        for (int i = 0; i < parentsLeft.length; i++) {
            if (sends[i] && parentsLeft[i] == 0) {
                due.add(new Due(i, startNs + rootOffsetsNs[i]));
            }
        }
    }

    /**
     * Waits until the earliest request is due and hands it out; requests due at the same time go in
     * index order. One thread at a time.
     *
     * @return the request, or null when every request was handed out
     * @throws InterruptedException when the thread is interrupted while waiting
     */
    public Due awaitNext() throws InterruptedException {
        if (!started) {
            throw new IllegalStateException("bug: the schedule has not started");
        }
        // Published before the queue is read: an end queued after that read unparks this thread, and a
        // park after an unpark returns at once, so no end is missed.
        scheduler = Thread.currentThread();
        while (handedOut < total) {
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            takeEnds();
            Due head = due.peek();
            if (head == null) {
                // every request left waits for an answer still on its way
                LockSupport.park(this);
                continue;
            }
            long leftNs = head.dueNs() - System.nanoTime();
            if (leftNs <= 0) {
                handedOut++;
                return due.poll();
            }
            LockSupport.parkNanos(this, leftNs);
        }
        return null;
    }

    /**
     * Request {@code index} ended (answered, failed, or not sent because a parent failed) at {@code endNs}:
     * each child whose parents have now all ended becomes due at the latest parent end plus its tool time.
     * A second call for the same request is a bug in the caller and is ignored. Never blocks.
     *
     * @param failed whether the request failed (its children are then not to be sent)
     */
    public void ended(int index, long endNs, boolean failed) {
        ends.add(new End(index, endNs, failed));
        Thread waiting = scheduler;
        if (waiting != null) {
            LockSupport.unpark(waiting);
        }
    }

    /** Applies the ends the I/O threads queued; on the scheduler thread. */
    private void takeEnds() {
        End end;
        while ((end = ends.poll()) != null) {
            if (ended[end.index()]) {
                continue;
            }
            ended[end.index()] = true;
            for (int child : children[end.index()]) {
                lastParentEndNs[child] = Math.max(lastParentEndNs[child], end.endNs());
                parentFailed[child] |= end.failed();
                if (--parentsLeft[child] == 0 && sends[child]) {
                    due.add(new Due(child, lastParentEndNs[child] + toolTimeNs[child], parentFailed[child]));
                }
            }
        }
    }
}
