package io.tokenpulse.aggregator.exposition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.micrometer.registry.otlp.OtlpMetricsSender;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/** A push to a receiver that is not there is counted and logged in one line, never thrown. */
class LoggedOtlpSenderTest {

    @Test
    void aRefusedPushIsCountedNotThrown() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort(); // closed again: nothing listens there
        }
        LoggedOtlpSender sender = new LoggedOtlpSender();
        OtlpMetricsSender.Request request = OtlpMetricsSender.Request.builder(new byte[0])
                .address("http://127.0.0.1:" + port + "/v1/metrics")
                .build();

        assertThatCode(() -> sender.send(request)).doesNotThrowAnyException();
        assertThat(sender.failures()).isEqualTo(1);
    }
}
