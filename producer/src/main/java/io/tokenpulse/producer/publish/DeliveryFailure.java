package io.tokenpulse.producer.publish;

import org.apache.kafka.clients.producer.BufferExhaustedException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.TimeoutException;

/** Why a record did not reach Kafka. Every such record is counted under exactly one reason. */
public enum DeliveryFailure {
    /** The producer's bounded buffer was full: Kafka was slower than the load generator. */
    BUFFER_FULL,
    /**
     * Kafka did not acknowledge in time ({@code delivery.timeout.ms}, unbounded by default), or had no
     * metadata for the topic; by default such records go to the spool instead.
     */
    TIMEOUT,
    /** Kafka was away and the spool was full (or the disk refused to write it). */
    SPOOL_FULL,
    /** The record is larger than the producer or the broker accepts. */
    RECORD_TOO_LARGE,
    /** The record could not be serialized (a required field missing, the registry unreachable). */
    SERIALIZATION,
    /** Still unacknowledged when the publisher was closed, or published after it was closed. */
    CLOSED,
    /** Any other error Kafka reported; the log names the first one. */
    KAFKA_ERROR,
    /**
     * Still in the spool when the run ended (Kafka did not come back within the wait): the records are
     * kept on disk, and {@code tokenpulse publish-spool DIR} hands them to Kafka later.
     */
    SPOOL_UNDRAINED,
    /**
     * Handed to Kafka but not acknowledged when the run ended (at the RunFinished count); a later
     * acknowledgement still delivers it, else the close counts it as {@link #CLOSED}.
     */
    UNACKNOWLEDGED;

    static DeliveryFailure of(Exception e, boolean closing) {
        if (closing) {
            return CLOSED;
        }
        if (e instanceof BufferExhaustedException) {
            return BUFFER_FULL; // checked before TimeoutException, which it extends
        }
        if (e instanceof TimeoutException) {
            return TIMEOUT;
        }
        if (e instanceof RecordTooLargeException) {
            return RECORD_TOO_LARGE;
        }
        if (e instanceof SerializationException) {
            return SERIALIZATION;
        }
        if (e instanceof IllegalStateException) {
            return CLOSED;
        }
        return KAFKA_ERROR;
    }
}
