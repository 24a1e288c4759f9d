package io.tokenpulse.producer;

import static org.assertj.core.api.Assertions.assertThat;

import io.tokenpulse.producer.backend.RequestOutcome;
import io.tokenpulse.producer.dataset.AgentStep;
import io.tokenpulse.producer.dataset.AgentTraceRequests;
import io.tokenpulse.producer.dataset.Prompt;
import io.tokenpulse.producer.dataset.SampledRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** What the dispatcher gets from an agent trace: this shard's sessions, each request at the time it became due. */
class AgentRequestPlanTest {

    private static final long MS = 1_000_000;

    /** Session 0: request 0, then 1 after 0 (5 ms tool time). Session 1: request 2 at 1 ms, then 3 after 2. */
    private static AgentTraceRequests twoSessions() {
        List<SampledRequest> requests = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            requests.add(new SampledRequest(new Prompt.Text("p" + i), 1, 1, i, OptionalLong.of(i == 2 ? MS : 0)));
        }
        return new AgentTraceRequests(
                requests,
                List.of(
                        new AgentStep(0, new int[0], 0),
                        new AgentStep(0, new int[] {0}, 5 * MS),
                        new AgentStep(1, new int[0], 0),
                        new AgentStep(1, new int[] {2}, 5 * MS)));
    }

    private static final RequestOutcome ANSWERED =
            new RequestOutcome(true, 200, "", 1, 1L, 1L, null, "x", true, RequestOutcome.Reasoning.NONE, List.of());
    private static final RequestOutcome REFUSED = new RequestOutcome(
            false, 0, "connection refused", 0, null, null, null, "", false, RequestOutcome.Reasoning.NONE, List.of());

    /** Requests the plan did not send, with their reasons. */
    private final List<String> notSent = new ArrayList<>();

    private void start(AgentRequestPlan plan, long startNs) {
        plan.start(startNs, (request, reason) -> notSent.add(request.index() + " " + reason));
    }

    @Test
    void aShardSendsItsSessionsWholeAndAChildIsPlannedAtItsParentsEndPlusToolTime() {
        AgentRequestPlan plan = AgentRequestPlan.of(twoSessions(), new Shard(1, 2));
        assertThat(plan.plannedSize()).isEqualTo(2);
        assertThat(plan.ownTimes()).isTrue();
        long startNs = System.nanoTime();
        start(plan, startNs);

        PlannedRequest root = plan.next();
        assertThat(root.index()).isEqualTo(2);
        assertThat(root.offsetNs()).isEqualTo(MS);
        assertThat(root.sample().prompt()).isEqualTo(new Prompt.Text("p2"));

        long[] heardNs = {-1};
        long endNs = System.nanoTime();
        plan.watching(root, (outcome, atNs) -> heardNs[0] = atNs).ended(ANSWERED, endNs);
        assertThat(heardNs[0])
                .as("the request's own listener still hears its end")
                .isEqualTo(endNs);

        PlannedRequest child = plan.next();
        assertThat(child.index()).isEqualTo(3);
        assertThat(child.offsetNs()).isEqualTo(endNs + 5 * MS - startNs);
        assertThat(System.nanoTime()).isGreaterThanOrEqualTo(endNs + 5 * MS);
        assertThat(plan.hasNext()).isFalse();
    }

    @Test
    void aChildOfAFailedParentIsNotHandedOutButGoesToNotSentWhenDueAndItsChildFollows() {
        // session 0: 0, then 1 after 0, then 2 after 1 (5 ms tool time each)
        List<SampledRequest> requests = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            requests.add(new SampledRequest(new Prompt.Text("p" + i), 1, 1, i, OptionalLong.of(0)));
        }
        AgentRequestPlan plan = AgentRequestPlan.of(
                new AgentTraceRequests(
                        requests,
                        List.of(
                                new AgentStep(0, new int[0], 0),
                                new AgentStep(0, new int[] {0}, 5 * MS),
                                new AgentStep(0, new int[] {1}, 5 * MS))),
                new Shard(0, 1));
        // records each request not sent as failed, through the listener the plan hands out, as ShardRun does
        plan.start(System.nanoTime(), (request, reason) -> {
            notSent.add(request.index() + " " + reason);
            plan.watching(request, (outcome, atNs) -> {})
                    .ended(
                            new RequestOutcome(
                                    false,
                                    0,
                                    reason,
                                    0,
                                    null,
                                    null,
                                    null,
                                    "",
                                    false,
                                    RequestOutcome.Reasoning.NONE,
                                    List.of()),
                            System.nanoTime());
        });
        PlannedRequest first = plan.next();
        assertThat(first.index()).isZero();

        long failedNs = System.nanoTime();
        plan.watching(first, (outcome, atNs) -> {}).ended(REFUSED, failedNs);

        assertThat(plan.hasNext()).as("neither descendant is handed out").isFalse();
        assertThat(System.nanoTime()).as("each when it was due").isGreaterThanOrEqualTo(failedNs + 10 * MS);
        assertThat(notSent)
                .containsExactly("1 " + AgentRequestPlan.PARENT_FAILED, "2 " + AgentRequestPlan.PARENT_FAILED);
    }

    @Test
    void anInterruptEndsTheIterationAndKeepsTheInterruptForTheDrain() {
        AgentRequestPlan plan = AgentRequestPlan.of(twoSessions(), new Shard(0, 2));
        start(plan, System.nanoTime());
        plan.next(); // request 0; request 1 waits for its answer

        Thread.currentThread().interrupt();
        try {
            assertThat(plan.hasNext()).isFalse();
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }
}
