package io.tokenpulse.producer.publish;

/** Why a run record did not reach Kafka: the counted reason, and Kafka's error when there was one. */
public final class UndeliveredRecordException extends RuntimeException {
    private final DeliveryFailure reason;

    UndeliveredRecordException(DeliveryFailure reason, Exception cause) {
        super(reason + (cause == null ? "" : ": " + cause.getMessage()), cause);
        this.reason = reason;
    }

    public DeliveryFailure reason() {
        return reason;
    }
}
