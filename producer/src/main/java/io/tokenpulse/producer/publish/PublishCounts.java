package io.tokenpulse.producer.publish;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What became of the records handed to an {@link EventPublisher}:
 * {@code published = delivered + failed (all reasons) + pending}.
 *
 * @param published records handed to {@code publish*}
 * @param delivered records Kafka acknowledged (acks=all)
 * @param failed    records that will never arrive, by reason
 * @param pending   records neither acknowledged nor failed yet
 * @param spooled   of the pending records, those waiting in the spool for Kafka to come back
 */
public record PublishCounts(
        long published, long delivered, Map<DeliveryFailure, Long> failed, long pending, long spooled) {

    public PublishCounts {
        failed = Map.copyOf(failed);
        if (published < 0 || delivered < 0 || pending < 0 || spooled < 0) {
            throw new IllegalArgumentException("counts must be >= 0");
        }
    }

    /** Counts with nothing in the spool. */
    public PublishCounts(long published, long delivered, Map<DeliveryFailure, Long> failed, long pending) {
        this(published, delivered, failed, pending, 0);
    }

    public long failedTotal() {
        return failed.values().stream().mapToLong(Long::longValue).sum();
    }

    /** The reasons that occurred, by name, most frequent first. */
    public Map<String, Long> failedByReason() {
        Map<String, Long> reasons = new LinkedHashMap<>();
        failed.entrySet().stream()
                .filter(e -> e.getValue() > 0)
                .sorted(Map.Entry.<DeliveryFailure, Long>comparingByValue().reversed())
                .forEach(e -> reasons.put(e.getKey().name(), e.getValue()));
        return reasons;
    }

    /**
     * Every record of {@link #notDelivered}, under exactly one reason, most frequent first: the failed
     * ones by their reason, the pending ones as {@link DeliveryFailure#SPOOL_UNDRAINED} (in the spool)
     * or {@link DeliveryFailure#UNACKNOWLEDGED} (with Kafka). The values add up to
     * {@link #notDelivered}; what RunFinished.records_not_delivered_by_reason reports.
     */
    public Map<String, Long> notDeliveredByReason() {
        Map<DeliveryFailure, Long> all = new java.util.EnumMap<>(DeliveryFailure.class);
        all.putAll(failed);
        long inSpool = Math.min(spooled, pending);
        all.merge(DeliveryFailure.SPOOL_UNDRAINED, inSpool, Long::sum);
        all.merge(DeliveryFailure.UNACKNOWLEDGED, pending - inSpool, Long::sum);
        Map<String, Long> reasons = new LinkedHashMap<>();
        all.entrySet().stream()
                .filter(e -> e.getValue() > 0)
                .sorted(Map.Entry.<DeliveryFailure, Long>comparingByValue().reversed())
                .forEach(e -> reasons.put(e.getKey().name(), e.getValue()));
        return reasons;
    }

    /** Records that did not arrive, or not yet: what RunFinished.records_not_delivered reports. */
    public long notDelivered() {
        return failedTotal() + pending;
    }
}
