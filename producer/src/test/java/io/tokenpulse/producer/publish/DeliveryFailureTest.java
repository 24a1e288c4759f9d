package io.tokenpulse.producer.publish;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.apache.kafka.clients.producer.BufferExhaustedException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class DeliveryFailureTest {

    static Stream<Arguments> failures() {
        return Stream.of(
                Arguments.of(new BufferExhaustedException("full"), false, DeliveryFailure.BUFFER_FULL),
                Arguments.of(
                        new TimeoutException("Topic t not present in metadata after 0 ms."),
                        false,
                        DeliveryFailure.TIMEOUT),
                Arguments.of(new RecordTooLargeException("big"), false, DeliveryFailure.RECORD_TOO_LARGE),
                Arguments.of(new SerializationException("bad"), false, DeliveryFailure.SERIALIZATION),
                Arguments.of(
                        new IllegalStateException("Cannot perform operation after producer has been closed"),
                        false,
                        DeliveryFailure.CLOSED),
                Arguments.of(new NotEnoughReplicasException("isr"), false, DeliveryFailure.KAFKA_ERROR),
                Arguments.of(new KafkaException("Producer is closed forcefully."), true, DeliveryFailure.CLOSED));
    }

    @ParameterizedTest(name = "{0} (closing: {1}) -> {2}")
    @MethodSource("failures")
    void eachKafkaErrorIsCountedUnderOneReason(Exception error, boolean closing, DeliveryFailure expected) {
        assertThat(DeliveryFailure.of(error, closing)).isEqualTo(expected);
    }
}
