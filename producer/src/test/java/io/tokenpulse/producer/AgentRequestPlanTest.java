package io.tokenpulse.producer;

import static org.assertj.core.api.Assertions.assertThat;

import io.tokenpulse.producer.dataset.AgentStep;
import io.tokenpulse.producer.dataset.AgentTraceRequests;
import io.tokenpulse.producer.dataset.Prompt;
import io.tokenpulse.producer.dataset.SampledRequest;
import io.tokenpulse.producer.http.StreamError;
import io.tokenpulse.producer.http.StreamListener;
import java.nio.ByteBuffer;
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

    /** Ends the request the way the HTTP client would: through the listener the plan handed out. */
    private static final class Ended implements StreamListener {
        long completedNs = -1;

        @Override
        public void onBytes(ByteBuffer bytes, long arrivalNs) {}

        @Override
        public void onComplete(long completedNs) {
            this.completedNs = completedNs;
        }

        @Override
        public void onError(StreamError error) {}
    }

    @Test
    void aShardSendsItsSessionsWholeAndAChildIsPlannedAtItsParentsEndPlusToolTime() {
        AgentRequestPlan plan = AgentRequestPlan.of(twoSessions(), new Shard(1, 2));
        assertThat(plan.plannedSize()).isEqualTo(2);
        assertThat(plan.ownTimes()).isTrue();
        long startNs = System.nanoTime();
        plan.start(startNs);

        PlannedRequest root = plan.next();
        assertThat(root.index()).isEqualTo(2);
        assertThat(root.offsetNs()).isEqualTo(MS);
        assertThat(root.sample().prompt()).isEqualTo(new Prompt.Text("p2"));

        Ended stream = new Ended();
        long endNs = System.nanoTime();
        plan.watching(root, stream).onComplete(endNs);
        assertThat(stream.completedNs)
                .as("the request's own listener still hears its end")
                .isEqualTo(endNs);

        PlannedRequest child = plan.next();
        assertThat(child.index()).isEqualTo(3);
        assertThat(child.offsetNs()).isEqualTo(endNs + 5 * MS - startNs);
        assertThat(System.nanoTime()).isGreaterThanOrEqualTo(endNs + 5 * MS);
        assertThat(plan.hasNext()).isFalse();
    }

    @Test
    void aFailedParentStillMakesItsChildDue() {
        AgentRequestPlan plan = AgentRequestPlan.of(twoSessions(), new Shard(0, 1));
        plan.start(System.nanoTime());
        PlannedRequest first = plan.next();
        assertThat(first.index()).isZero();

        long beforeNs = System.nanoTime();
        plan.watching(first, new Ended()).onError(new StreamError(StreamError.Kind.CONNECT_FAILED, 0, "refused", ""));

        assertThat(plan.next().index()).isEqualTo(2); // the other session's root, due at 1 ms
        PlannedRequest child = plan.next();
        assertThat(child.index()).isEqualTo(1);
        assertThat(System.nanoTime()).isGreaterThanOrEqualTo(beforeNs + 5 * MS);
    }

    @Test
    void anInterruptEndsTheIterationAndKeepsTheInterruptForTheDrain() {
        AgentRequestPlan plan = AgentRequestPlan.of(twoSessions(), new Shard(0, 2));
        plan.start(System.nanoTime());
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
