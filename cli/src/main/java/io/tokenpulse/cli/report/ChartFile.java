package io.tokenpulse.cli.report;

import io.tokenpulse.aggregator.results.StoredWindows;
import io.tokenpulse.charts.RunChart;
import io.tokenpulse.runner.Pipeline;
import io.tokenpulse.runner.UserError;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

/**
 * A run's chart as a PNG file: its window metrics read back from Kafka ({@link StoredWindows#read})
 * and drawn by {@link RunChart}. Shared by {@code chart} and {@code bench --save-chart}.
 */
public final class ChartFile {
    private ChartFile() {}

    /**
     * Checks before any run or connection that the file can be written, so a typo fails at once.
     *
     * @param flag the option the path came from, for the message
     * @throws UserError (usage) when the name does not end in .png or its folder does not exist
     */
    public static Path checked(String flag, String file) {
        Path path = Path.of(file).toAbsolutePath();
        if (!path.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".png")) {
            throw UserError.usage(flag + " must name a .png file, got " + file);
        }
        if (!Files.isDirectory(path.getParent())) {
            throw UserError.usage(flag + " " + file + ": folder " + path.getParent() + " does not exist");
        }
        return path;
    }

    /**
     * Reads the run's windows (waiting up to {@code wait} for the last updates), renders and writes
     * the PNG, and says where on {@code out}.
     *
     * @throws UserError (failure) for an unknown run, a run without windows, or a file that cannot be written
     */
    public static void save(
            Pipeline pipeline, String runId, Path output, RunChart.Size size, Duration wait, PrintStream out) {
        StoredWindows stored;
        try {
            stored = StoredWindows.read(pipeline.topics(), pipeline.clientProperties(), runId, wait);
        } catch (IllegalArgumentException e) {
            throw UserError.failure(e.getMessage());
        }
        if (stored.windows().isEmpty()) {
            throw UserError.failure("run " + runId + " has no window metrics in topic "
                    + pipeline.topics().windowMetrics().name() + " after waiting " + wait.toSeconds()
                    + " s; did any of its requests finish, and did its aggregator run?");
        }
        byte[] png = RunChart.png(stored.windows(), stored.summary(), size);
        try {
            Files.write(output, png);
        } catch (IOException e) {
            throw UserError.failure("cannot write the chart to " + output + ": " + e.getMessage());
        }
        out.println("Chart saved to " + output + " (" + stored.windows().size() + " windows"
                + (stored.complete() ? "" : ", run not complete") + ")");
    }
}
