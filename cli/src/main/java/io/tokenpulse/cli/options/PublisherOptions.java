package io.tokenpulse.cli.options;

import io.tokenpulse.producer.publish.ChunkRecords;
import io.tokenpulse.producer.publish.PublisherSettings;
import io.tokenpulse.runner.RunPlan;
import io.tokenpulse.runner.UserError;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.stream.Collectors;
import picocli.CommandLine.Option;

/**
 * How bench's publisher writes to Kafka: {@code --spool-dir} and {@code --spool-max-mb}, where it
 * keeps the records Kafka cannot take while it is away; {@code --chunk-records} and
 * {@code --chunk-batch-ms}, which records carry the streamed events.
 */
public final class PublisherOptions {

    static final String DIR = "--spool-dir";
    static final String MAX_MB = "--spool-max-mb";
    static final String RECORDS = "--chunk-records";
    static final String BATCH_MS = "--chunk-batch-ms";
    /** A batch waits at most this long: beyond it the live chunk count would lag by more than a window's grace. */
    private static final long MAX_BATCH_MS = 10_000;

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

    @Option(
            names = RECORDS,
            paramLabel = "batched|per-event",
            defaultValue = "batched",
            description = "batched (default): a request's streamed events go to Kafka as one record (topic"
                    + " <prefix>chunk-batches) per --chunk-batch-ms, every event's timing kept exactly; per-event:"
                    + " one record per event (topic <prefix>chunks), for consumers that read that topic. The"
                    + " aggregator reads both.")
    String chunkRecords;

    @Option(
            names = BATCH_MS,
            paramLabel = "MS",
            defaultValue = "100",
            description = "With batched chunk records: the longest a request's events wait to leave as one record"
                    + " (a request's last ones leave when it ends). Default ${DEFAULT-VALUE}.")
    long chunkBatchMs;

    /** A spool folder that cannot be written, a negative size or a bad chunk record flag is a usage error, before the run. */
    public void validate() {
        chunkRecords();
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

    /** An unknown layout or a batch interval out of range is a usage error, before the run. */
    public ChunkRecords chunkRecords() {
        ChunkRecords.Layout layout = Arrays.stream(ChunkRecords.Layout.values())
                .filter(l -> l.flagValue().equals(chunkRecords))
                .findFirst()
                .orElseThrow(() -> UserError.usage(RECORDS + " must be "
                        + Arrays.stream(ChunkRecords.Layout.values())
                                .map(ChunkRecords.Layout::flagValue)
                                .collect(Collectors.joining(" or "))
                        + ", got '" + chunkRecords + "'"));
        if (chunkBatchMs < 0 || chunkBatchMs > MAX_BATCH_MS) {
            throw UserError.usage(BATCH_MS + " must be in 0.." + MAX_BATCH_MS + " ms, got " + chunkBatchMs);
        }
        return new ChunkRecords(layout, Duration.ofMillis(chunkBatchMs));
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
