package io.tokenpulse.cli.options;

import io.tokenpulse.producer.publish.PublisherSettings;
import io.tokenpulse.runner.RunPlan;
import io.tokenpulse.runner.UserError;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --spool-dir} and {@code --spool-max-mb}: where bench keeps the records Kafka cannot take while it is away. */
public final class SpoolOptions {

    static final String DIR = "--spool-dir";
    static final String MAX_MB = "--spool-max-mb";

    @Option(
            names = DIR,
            paramLabel = "DIR",
            description = "Where records wait on disk while Kafka is away, drained in order when it is back"
                    + " (default: ~/.tokenpulse/spool; nothing is written while Kafka keeps up).")
    String spoolDir;

    @Option(
            names = MAX_MB,
            paramLabel = "MiB",
            defaultValue = "2048",
            description = "Most the spool holds, in MiB; records beyond it are dropped and counted (SPOOL_FULL)."
                    + " 0 keeps nothing. Default ${DEFAULT-VALUE}: ten minutes of 20 000 chunks/s.")
    long spoolMaxMb;

    /** A folder that cannot be written or a negative size is a usage error, before the run. */
    public void validate() {
        if (spoolMaxMb < 0) {
            throw UserError.usage(MAX_MB + " must be >= 0 MiB, got " + spoolMaxMb);
        }
        Path dir = dir();
        if (spoolMaxMb > 0) {
            try {
                Files.createDirectories(dir);
            } catch (IOException e) {
                throw UserError.usage(DIR + " " + dir + " cannot be created (" + e + "): give a writable folder");
            }
            if (!Files.isWritable(dir)) {
                throw UserError.usage(DIR + " " + dir + " is not writable: give a writable folder");
            }
        }
    }

    /** The spool a run's publisher uses (checked by {@link #validate} first). */
    public RunPlan.Spool spool() {
        return new RunPlan.Spool(dir(), spoolMaxMb << 20);
    }

    private Path dir() {
        if (spoolDir == null) {
            return PublisherSettings.DEFAULT_SPOOL_DIR;
        }
        try {
            return Path.of(spoolDir).toAbsolutePath();
        } catch (InvalidPathException e) {
            throw UserError.usage(DIR + " " + spoolDir + " is not a path: " + e.getReason());
        }
    }
}
