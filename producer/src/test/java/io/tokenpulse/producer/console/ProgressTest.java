package io.tokenpulse.producer.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class ProgressTest {

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    @Test
    void theLastLineCountsEveryStep() {
        try (Progress progress = Progress.start(out, 3, false)) {
            progress.step();
            progress.step();
        }

        assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("| 2/3 [");
    }

    @Test
    void aStepDoesNotWaitForTheLockOfTheDrawingThread() throws Exception {
        Progress progress = Progress.start(out, 10, false);
        // the library's state, whose monitor its drawing thread takes for every value it reads
        Object state = field(field(progress, "bar"), "progress");
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread drawing = new Thread(() -> {
            synchronized (state) {
                held.countDown();
                awaitQuietly(release);
            }
        });
        drawing.start();
        held.await();
        try {
            assertThat(CompletableFuture.runAsync(progress::step)).succeedsWithin(Duration.ofSeconds(5));
        } finally {
            release.countDown();
            drawing.join();
            progress.close();
        }

        assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("| 1/10 [");
    }

    private static Object field(Object owner, String name) throws ReflectiveOperationException {
        Field field = owner.getClass().getDeclaredField(name);
        field.setAccessible(true);
        return field.get(owner);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
