package io.tokenpulse.simulator.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DeterministicModelTest {

    private static final long MS = 1_000_000L;

    private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stop() {
        loop.shutdownNow();
    }

    @Test
    void tokensAreDueAtAbsoluteDeadlinesAndNoneIsEmittedEarly() throws Exception {
        long receivedNs = System.nanoTime();
        Timed generation = new Timed(receivedNs, 4, Integer.MAX_VALUE);
        new DeterministicModel(5 * MS, 2 * MS).generate(generation);

        assertThat(generation.finished.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(generation.dueNs)
                .containsExactly(receivedNs + 5 * MS, receivedNs + 7 * MS, receivedNs + 9 * MS, receivedNs + 11 * MS);
        for (int i = 0; i < 4; i++) {
            assertThat(generation.emittedNs.get(i)).isGreaterThanOrEqualTo(generation.dueNs.get(i));
        }
    }

    @Test
    void aGenerationThatIsDoneGetsNoMoreTokens() throws Exception {
        Timed generation = new Timed(System.nanoTime(), 10, 2);
        new DeterministicModel(MS, MS).generate(generation);

        Thread.sleep(50); // 10 tokens would have been due by now
        assertThat(generation.dueNs).hasSize(2);
    }

    /** Records when each token was due and emitted; done after {@code doneAfter} tokens (a client that left). */
    private final class Timed implements Generation {
        final List<Long> dueNs = new CopyOnWriteArrayList<>();
        final List<Long> emittedNs = new CopyOnWriteArrayList<>();
        final CountDownLatch finished = new CountDownLatch(1);
        private final long receivedNs;
        private final int maxTokens;
        private final int doneAfter;

        Timed(long receivedNs, int maxTokens, int doneAfter) {
            this.receivedNs = receivedNs;
            this.maxTokens = maxTokens;
            this.doneAfter = doneAfter;
        }

        @Override
        public String requestId() {
            return "timed";
        }

        @Override
        public int promptTokens() {
            return 1;
        }

        @Override
        public int[] promptIds() {
            return new int[] {0};
        }

        @Override
        public int maxTokens() {
            return maxTokens;
        }

        @Override
        public long receivedNs() {
            return receivedNs;
        }

        @Override
        public ScheduledExecutorService scheduler() {
            return loop;
        }

        @Override
        public void emit(int tokens, long due) {
            emittedNs.add(System.nanoTime());
            dueNs.add(due);
            if (dueNs.size() == maxTokens) {
                finished.countDown();
            }
        }

        @Override
        public boolean isDone() {
            return dueNs.size() >= doneAfter;
        }
    }
}
