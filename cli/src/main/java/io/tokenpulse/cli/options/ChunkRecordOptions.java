package io.tokenpulse.cli.options;

import io.tokenpulse.producer.publish.ChunkRecords;
import io.tokenpulse.runner.UserError;
import java.time.Duration;
import java.util.Arrays;
import java.util.stream.Collectors;
import picocli.CommandLine.Option;

/** {@code --chunk-records} and {@code --chunk-batch-ms}: how bench's streamed events become Kafka records. */
public final class ChunkRecordOptions {

    static final String RECORDS = "--chunk-records";
    static final String BATCH_MS = "--chunk-batch-ms";
    /** A batch waits at most this long: beyond it the live chunk count would lag by more than a window's grace. */
    private static final long MAX_BATCH_MS = 10_000;

    @Option(
            names = RECORDS,
            paramLabel = "batched|per-event",
            defaultValue = "per-event", // batched once the aggregator reads chunk-batches
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
}
