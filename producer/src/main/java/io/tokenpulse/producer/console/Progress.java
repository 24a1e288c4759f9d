package io.tokenpulse.producer.console;

import java.io.PrintStream;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;

/**
 * The run's progress bar on the caller's stream, one step per finished request, drawn by the
 * progressbar library's own thread; {@code --disable-tqdm} makes it a no-op.
 *
 * <p>Threading: {@link #step()} may be called from any thread (a synchronized increment).
 */
public final class Progress implements AutoCloseable {

    /** tqdm refreshes at most every 0.1 s. */
    private static final int REFRESH_MS = 100;

    private static final int DEFAULT_COLUMNS = 100;

    private final ProgressBar bar;

    private Progress(ProgressBar bar) {
        this.bar = bar;
    }

    /** @param total requests planned, or -1 when the duration decides */
    public static Progress start(PrintStream out, long total, boolean disabled) {
        if (disabled) {
            return new Progress(null);
        }
        return new Progress(new ProgressBarBuilder()
                .setInitialMax(total)
                .setUpdateIntervalMillis(REFRESH_MS)
                .setRenderer(new TqdmLine())
                .setConsumer(new ConsoleProgressBarConsumer(out, columns()))
                .build());
    }

    public void step() {
        if (bar != null) {
            bar.step();
        }
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
