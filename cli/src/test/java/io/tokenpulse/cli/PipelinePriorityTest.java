package io.tokenpulse.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

class PipelinePriorityTest {

    @Test
    @EnabledOnOs(OS.LINUX)
    void threadsStartedInsideRunLowerAndTheCallerKeepsItsPriority() throws Exception {
        int callerNice = PipelinePriority.niceOf(PipelinePriority.currentThread());
        AtomicReference<Integer> startedNice = new AtomicReference<>();
        try (PipelinePriority priority = PipelinePriority.of(10)) {
            int starterNice = priority.start(() -> {
                // a thread the pipeline starts, as Kafka's broker and Streams do
                Thread worker = new Thread(() -> {
                    try {
                        startedNice.set(PipelinePriority.niceOf(PipelinePriority.currentThread()));
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                });
                worker.start();
                worker.join();
                return PipelinePriority.niceOf(PipelinePriority.currentThread());
            });
            int expected = Math.min(PipelinePriority.MAX_NICE, callerNice + 10);
            assertThat(starterNice).isEqualTo(expected);
            assertThat(startedNice.get()).isEqualTo(expected);
        }
        assertThat(PipelinePriority.niceOf(PipelinePriority.currentThread())).isEqualTo(callerNice);
    }

    @Test
    void zeroRunsOnTheCallersThread() throws Exception {
        Thread caller = Thread.currentThread();
        try (PipelinePriority priority = PipelinePriority.of(0)) {
            assertThat(priority.start(Thread::currentThread)).isSameAs(caller);
        }
    }

    @Test
    void aStartThatStartsAnotherPartRunsItOnTheSameThread() throws Exception {
        try (PipelinePriority priority = PipelinePriority.of(3)) {
            Thread[] threads =
                    priority.start(() -> new Thread[] {Thread.currentThread(), priority.start(Thread::currentThread)});
            assertThat(threads[1]).isSameAs(threads[0]).isNotSameAs(Thread.currentThread());
        }
    }

    @Test
    void theStartsOwnExceptionsReachTheCaller() {
        try (PipelinePriority priority = PipelinePriority.of(5)) {
            assertThatThrownBy(() -> priority.start(() -> {
                        throw new IOException("disk full");
                    }))
                    .isInstanceOf(IOException.class)
                    .hasMessage("disk full");
            assertThatThrownBy(() -> priority.start(() -> {
                        throw UserError.usage("bad flag");
                    }))
                    .isInstanceOf(UserError.class)
                    .hasMessage("bad flag");
        }
    }

    @Test
    void aValueOutsideNicesRangeIsAUsageError() {
        assertThatThrownBy(() -> PipelinePriority.check(20))
                .isInstanceOf(UserError.class)
                .hasMessageContaining("--pipeline-nice 20 is not a nice value from 0 to 19");
        assertThatThrownBy(() -> PipelinePriority.check(-1)).isInstanceOf(UserError.class);
    }
}
