package io.tokenpulse.cli.options;

import io.tokenpulse.aggregator.topology.StreamsSettings;
import io.tokenpulse.runner.UserError;
import java.time.Duration;
import picocli.CommandLine.Option;

/** {@code --window-size-ms} and {@code --window-grace-ms}: the live windows of an aggregator this command runs. */
public final class WindowOptions {

    public static final String SIZE = "--window-size-ms";
    public static final String GRACE = "--window-grace-ms";

    @Option(
            names = SIZE,
            defaultValue = "10000",
            description = "Size of the live metric windows in ms (default: ${DEFAULT-VALUE}).")
    long windowSizeMs;

    @Option(
            names = GRACE,
            defaultValue = "30000",
            description =
                    "How late a request may arrive and still count in its window, in ms (default: ${DEFAULT-VALUE}).")
    long windowGraceMs;

    /** Fails with one line naming the flags when a window cannot be built from them. */
    public void validate() {
        if (windowSizeMs <= 0 || windowGraceMs < 0) {
            throw UserError.usage(
                    SIZE + " must be > 0 and " + GRACE + " >= 0, got " + windowSizeMs + " and " + windowGraceMs);
        }
    }

    public Duration size() {
        return Duration.ofMillis(windowSizeMs);
    }

    public Duration grace() {
        return Duration.ofMillis(windowGraceMs);
    }

    public StreamsSettings applyTo(StreamsSettings settings) {
        return settings.withWindowSize(Duration.ofMillis(windowSizeMs))
                .withWindowGrace(Duration.ofMillis(windowGraceMs));
    }
}
