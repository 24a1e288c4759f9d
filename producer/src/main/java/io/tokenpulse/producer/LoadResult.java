package io.tokenpulse.producer;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one shard's run did, as its RunFinished record reports it, for the caller's console and
 * exit code. The metrics themselves are computed downstream from the records.
 *
 * @param started requests sent, excluding the initial test request
 * @param succeeded requests that succeeded (docs/metrics.md, what counts as failed)
 * @param failed requests that failed; {@code started == succeeded + failed}
 * @param chunkEvents chunk records handed to Kafka
 * @param recordsNotDelivered records of any kind not delivered to Kafka when the run ended,
 *     including its RunFinished record if that one did not make it either
 * @param notDeliveredByReason {@code recordsNotDelivered} by
 *     {@link io.tokenpulse.producer.publish.DeliveryFailure} name, most frequent first; adds up to it
 * @param lostRunRecords the shard's RunStarted or RunFinished, each with its reason, when it did not
 *     reach Kafka: without them the run has no summary
 * @param failureReasons failed requests by reason, most frequent first; reasons beyond the first
 *     {@value RunTally#MAX_REASONS} distinct ones are counted under {@link RunTally#OTHER_REASON}
 * @param scheduleStartEpochNs wall clock at the schedule start, ns since the Unix epoch
 * @param durationNs benchmark duration: from the schedule start until the last request finished
 *     (docs/metrics.md, benchmark duration); 0 when nothing was sent
 * @param interrupted the run was stopped (Ctrl-C, SIGTERM) before its schedule ended; the counts
 *     cover the requests sent before that
 * @param sendLagP99Ms P99 of how late the client itself sent requests ({@link ClientLag}), ms; NaN
 *     when nothing was sent
 * @param ioThreadBusy the busiest HTTP I/O thread's CPU share of the run's wall time, 0..1; NaN when
 *     not measurable
 * @param warmupRequests {@code --num-warmups} requests sent before the schedule started
 * @param warmConnections connections opened before the schedule started ({@link WarmPool})
 */
public record LoadResult(
        long started,
        long succeeded,
        long failed,
        long chunkEvents,
        long recordsNotDelivered,
        Map<String, Long> notDeliveredByReason,
        List<String> lostRunRecords,
        Map<String, Long> failureReasons,
        long scheduleStartEpochNs,
        long durationNs,
        boolean interrupted,
        double sendLagP99Ms,
        double ioThreadBusy,
        int warmupRequests,
        int warmConnections) {

    public LoadResult {
        failureReasons = Collections.unmodifiableMap(new LinkedHashMap<>(failureReasons));
        notDeliveredByReason = Collections.unmodifiableMap(new LinkedHashMap<>(notDeliveredByReason));
        lostRunRecords = List.copyOf(lostRunRecords);
        if (started != succeeded + failed) {
            throw new IllegalArgumentException(
                    "started (" + started + ") must equal succeeded (" + succeeded + ") + failed (" + failed + ")");
        }
    }
}
