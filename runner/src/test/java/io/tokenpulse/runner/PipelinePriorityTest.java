package io.tokenpulse.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

class PipelinePriorityTest {

    /** A thread that reports its /proc task, then waits until released. */
    private static final class Parked implements Runnable {
        final AtomicReference<Path> task = new AtomicReference<>();
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public void run() {
            try {
                task.set(PipelinePriority.currentThread());
                started.countDown();
                release.await();
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }

        Thread start(String name) throws InterruptedException {
            Thread thread = new Thread(this, name);
            thread.start();
            started.await();
            return thread;
        }
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void theLoadLowersWhatThePipelineStartedButTheTimingThreadsAndTheCaller() throws Exception {
        int callerNice = PipelinePriority.niceOf(PipelinePriority.currentThread());
        int lowered = Math.min(PipelinePriority.MAX_NICE, callerNice + 10);
        Parked broker = new Parked();
        Parked http = new Parked();
        try (PipelinePriority priority = PipelinePriority.of(10)) {
            // started as the broker and Streams start their threads: at the caller's priority until the load
            Thread brokerThread = priority.start(() -> broker.start("data-plane-kafka-request-handler-0"));
            Thread httpThread = http.start("tp-http-4-1");
            assertThat(PipelinePriority.niceOf(broker.task.get())).isEqualTo(callerNice);

            priority.lowerForTheLoad();

            assertThat(PipelinePriority.niceOf(broker.task.get())).isEqualTo(lowered);
            assertThat(PipelinePriority.niceOf(http.task.get())).isEqualTo(callerNice);
            assertThat(PipelinePriority.niceOf(PipelinePriority.currentThread()))
                    .isEqualTo(callerNice);
            // a part started during the load (the scraper) runs lowered, as do the threads it starts
            Parked scraper = new Parked();
            Thread scraperThread = priority.start(() -> scraper.start("tp-server-scrape-1"));
            assertThat(PipelinePriority.niceOf(scraper.task.get())).isEqualTo(lowered);
            for (Parked parked : new Parked[] {broker, http, scraper}) {
                parked.release.countDown();
            }
            brokerThread.join();
            httpThread.join();
            scraperThread.join();
        }
    }

    @Test
    void zeroRunsOnTheCallersThread() throws Exception {
        Thread caller = Thread.currentThread();
        try (PipelinePriority priority = PipelinePriority.of(0)) {
            assertThat(priority.start(Thread::currentThread)).isSameAs(caller);
            priority.lowerForTheLoad(); // nothing to lower
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
