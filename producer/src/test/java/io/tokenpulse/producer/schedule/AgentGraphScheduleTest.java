package io.tokenpulse.producer.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The agent graph's due times on the real clock: ms-scale gaps, checked as lower bounds and exact dues. */
class AgentGraphScheduleTest {

    private static final long MS = 1_000_000;

    private final ExecutorService scheduler = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    private static AgentGraphSchedule schedule(int[][] parents, long[] toolTimeNs, long[] rootOffsetsNs) {
        boolean[] sends = new boolean[parents.length];
        java.util.Arrays.fill(sends, true);
        return new AgentGraphSchedule(parents, toolTimeNs, rootOffsetsNs, sends);
    }

    private Future<AgentGraphSchedule.Due> next(AgentGraphSchedule schedule) {
        return scheduler.submit(schedule::awaitNext);
    }

    private static AgentGraphSchedule.Due handedOutAndOnTime(AgentGraphSchedule schedule) throws Exception {
        AgentGraphSchedule.Due due = schedule.awaitNext();
        assertThat(System.nanoTime()).isGreaterThanOrEqualTo(due.dueNs());
        return due;
    }

    @Test
    void requestsWithoutParentsGoAtTheirOffsetsInTimeOrder() throws Exception {
        AgentGraphSchedule schedule =
                schedule(new int[][] {{}, {}, {}}, new long[] {0, 0, 0}, new long[] {0, 40 * MS, 20 * MS});
        long startNs = System.nanoTime();
        schedule.start(startNs);

        List<AgentGraphSchedule.Due> order = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            order.add(handedOutAndOnTime(schedule));
        }

        assertThat(order)
                .containsExactly(
                        new AgentGraphSchedule.Due(0, startNs),
                        new AgentGraphSchedule.Due(2, startNs + 20 * MS),
                        new AgentGraphSchedule.Due(1, startNs + 40 * MS));
        assertThat(schedule.awaitNext()).as("all handed out").isNull();
    }

    @Test
    void aChildIsDueItsToolTimeAfterItsParentEndedAndNotBefore() throws Exception {
        AgentGraphSchedule schedule = schedule(new int[][] {{}, {0}}, new long[] {0, 30 * MS}, new long[] {0, 0});
        schedule.start(System.nanoTime());
        assertThat(schedule.awaitNext().index()).isZero();

        Future<AgentGraphSchedule.Due> child = next(schedule);
        Thread.sleep(60);
        assertThat(child).as("waits for the parent's answer however long").isNotDone();
        long parentEndNs = System.nanoTime();
        schedule.ended(0, parentEndNs, false);
        AgentGraphSchedule.Due due = child.get(5, TimeUnit.SECONDS);

        assertThat(due).isEqualTo(new AgentGraphSchedule.Due(1, parentEndNs + 30 * MS));
        assertThat(System.nanoTime()).isGreaterThanOrEqualTo(parentEndNs + 30 * MS);
    }

    @Test
    void fanOutChildrenAreDueTogetherWithoutWaitingForEachOther() throws Exception {
        AgentGraphSchedule schedule =
                schedule(new int[][] {{}, {0}, {0}, {0}}, new long[] {0, 10 * MS, 10 * MS, 10 * MS}, new long[4]);
        schedule.start(System.nanoTime());
        schedule.awaitNext();
        long parentEndNs = System.nanoTime();
        schedule.ended(0, parentEndNs, false);

        List<AgentGraphSchedule.Due> children = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            children.add(handedOutAndOnTime(schedule));
        }

        // All three handed out while none of them has ended: they are in flight together.
        assertThat(children)
                .containsExactly(
                        new AgentGraphSchedule.Due(1, parentEndNs + 10 * MS),
                        new AgentGraphSchedule.Due(2, parentEndNs + 10 * MS),
                        new AgentGraphSchedule.Due(3, parentEndNs + 10 * MS));
    }

    @Test
    void aJoinWaitsForItsLastParentInWhateverOrderTheyEnd() throws Exception {
        // 0 fans out to 1 and 2; 3 joins them
        AgentGraphSchedule schedule =
                schedule(new int[][] {{}, {0}, {0}, {1, 2}}, new long[] {0, 0, 0, 5 * MS}, new long[4]);
        schedule.start(System.nanoTime());
        schedule.awaitNext();
        schedule.ended(0, System.nanoTime(), false);
        assertThat(schedule.awaitNext().index()).isEqualTo(1);
        assertThat(schedule.awaitNext().index()).isEqualTo(2);

        Future<AgentGraphSchedule.Due> join = next(schedule);
        long laterEndNs = System.nanoTime();
        schedule.ended(2, laterEndNs, false);
        Thread.sleep(40);
        assertThat(join).as("one parent still running").isNotDone();
        schedule.ended(1, laterEndNs - 3 * MS, false); // its answer came earlier but was reported last

        assertThat(join.get(5, TimeUnit.SECONDS)).isEqualTo(new AgentGraphSchedule.Due(3, laterEndNs + 5 * MS));
    }

    @Test
    void anEarlierDueChildOvertakesALaterRootTheSchedulerIsWaitingFor() throws Exception {
        AgentGraphSchedule schedule =
                schedule(new int[][] {{}, {}, {0}}, new long[] {0, 0, 0}, new long[] {0, 300 * MS, 0});
        long startNs = System.nanoTime();
        schedule.start(startNs);
        schedule.awaitNext();

        Future<AgentGraphSchedule.Due> next = next(schedule); // parks until the root at 300 ms
        Thread.sleep(20);
        long endNs = System.nanoTime();
        schedule.ended(0, endNs, false);

        assertThat(next.get(5, TimeUnit.SECONDS)).isEqualTo(new AgentGraphSchedule.Due(2, endNs));
        assertThat(System.nanoTime()).isLessThan(startNs + 300 * MS);
    }

    @Test
    void onlyTheRequestsItSendsAreHandedOutAndASecondEndIsIgnored() throws Exception {
        AgentGraphSchedule schedule = new AgentGraphSchedule(
                new int[][] {{}, {0}, {}, {2, 1}}, new long[4], new long[4], new boolean[] {true, true, false, false});
        assertThat(schedule.size()).isEqualTo(2);
        schedule.start(System.nanoTime());
        assertThat(schedule.awaitNext().index()).isZero();
        schedule.ended(0, System.nanoTime(), false);
        schedule.ended(0, System.nanoTime(), false);
        assertThat(schedule.awaitNext().index()).isEqualTo(1);
        assertThat(schedule.awaitNext()).isNull();
    }

    @Test
    void aChildOfAFailedParentIsDueMarkedAndItsOwnChildFollowsWhenItIsRecordedFailed() throws Exception {
        // 0 -> 1 -> 2, tool time 5 ms each
        AgentGraphSchedule schedule = schedule(new int[][] {{}, {0}, {1}}, new long[] {0, 5 * MS, 5 * MS}, new long[3]);
        schedule.start(System.nanoTime());
        schedule.awaitNext();
        long failedNs = System.nanoTime();
        schedule.ended(0, failedNs, true);

        AgentGraphSchedule.Due child = handedOutAndOnTime(schedule);
        assertThat(child).isEqualTo(new AgentGraphSchedule.Due(1, failedNs + 5 * MS, true));
        long recordedNs = System.nanoTime();
        schedule.ended(1, recordedNs, true); // the caller records the child failed instead of sending it

        assertThat(handedOutAndOnTime(schedule)).isEqualTo(new AgentGraphSchedule.Due(2, recordedNs + 5 * MS, true));
        assertThat(schedule.awaitNext()).isNull();
    }

    @Test
    void aJoinWithOneFailedParentWaitsForTheOthersAndIsMarked() throws Exception {
        AgentGraphSchedule schedule = schedule(new int[][] {{}, {}, {0, 1}}, new long[3], new long[3]);
        schedule.start(System.nanoTime());
        schedule.awaitNext();
        schedule.awaitNext();
        schedule.ended(0, System.nanoTime(), true);

        Future<AgentGraphSchedule.Due> join = next(schedule);
        Thread.sleep(40);
        assertThat(join).as("the other parent still running").isNotDone();
        long lastEndNs = System.nanoTime();
        schedule.ended(1, lastEndNs, false);

        assertThat(join.get(5, TimeUnit.SECONDS)).isEqualTo(new AgentGraphSchedule.Due(2, lastEndNs, true));
    }

    @Test
    void anEndReportedFromAnotherThreadBeforeTheSchedulerWaitsIsNotLost() throws Exception {
        AgentGraphSchedule schedule = schedule(new int[][] {{}, {0}}, new long[2], new long[2]);
        schedule.start(System.nanoTime());
        schedule.awaitNext();
        long endNs = System.nanoTime();
        Thread io = new Thread(() -> schedule.ended(0, endNs, false));
        io.start();
        io.join();

        assertThat(next(schedule).get(5, TimeUnit.SECONDS)).isEqualTo(new AgentGraphSchedule.Due(1, endNs));
    }

    @Test
    void aWaitingSchedulerStopsWhenInterrupted() {
        AgentGraphSchedule schedule = schedule(new int[][] {{}, {0}}, new long[2], new long[2]);
        schedule.start(System.nanoTime());
        CompletableFuture<Throwable> thrown = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                schedule.awaitNext();
                schedule.awaitNext();
                thrown.complete(null);
            } catch (Throwable e) {
                thrown.complete(e);
            }
        });
        thread.start();
        thread.interrupt();

        assertThat(thrown.join()).isInstanceOf(InterruptedException.class);
    }

    @Test
    void aParentAfterItsChildIsRefused() {
        assertThatThrownBy(() -> schedule(new int[][] {{1}, {}}, new long[2], new long[2]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not an earlier one");
    }
}
