package io.tokenpulse.producer.console;

import java.io.PrintStream;
import java.util.concurrent.atomic.LongAdder;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;

/**
 * The run's progress bar on the caller's stream, one step per finished request, drawn by the
 * progressbar library's own thread; {@code --disable-tqdm} makes it a no-op.
 *
 * <p>Threading: {@link #step()} may be called from any thread, the I/O threads included: it only
 * adds to a counter, which the drawing thread reads. (The library's own {@code step()} takes the
 * monitor its drawing thread holds while it reads the state: an I/O thread could wait there for a
 * drawing thread the scheduler preempted.)
 */
public final class Progress implements AutoCloseable {

    /** tqdm refreshes at most every 0.1 s. */
    private static final int REFRESH_MS = 100;

    private static final int DEFAULT_COLUMNS = 100;

    private final ProgressBar bar;
    private final LongAdder finished;

    private Progress(ProgressBar bar, LongAdder finished) {
        this.bar = bar;
        this.finished = finished;
    }

    /** @param total requests planned, or -1 when the duration decides */
    public static Progress start(PrintStream out, long total, boolean disabled) {
        LongAdder finished = new LongAdder();
        if (disabled) {
            return new Progress(null, finished);
        }
        return new Progress(
                new ProgressBarBuilder()
                        .setInitialMax(total)
                        .setUpdateIntervalMillis(REFRESH_MS)
                        .setRenderer(new TqdmLine(finished::sum))
                        .setConsumer(new ConsoleProgressBarConsumer(out, columns()))
                        .build(),
                finished);
    }

    public void step() {
        finished.increment();
    }

    @Override
    public void close() {
        if (bar != null) {
            bar.close();
        }
    }

    /** The terminal's width as the shell exports it; asking the terminal itself needs a native library. */
    private static int columns() {
        try {
            String columns = System.getenv("COLUMNS");
            return columns == null ? DEFAULT_COLUMNS : Math.max(40, Integer.parseInt(columns.strip()));
        } catch (NumberFormatException e) {
            return DEFAULT_COLUMNS;
        }
    }
}
