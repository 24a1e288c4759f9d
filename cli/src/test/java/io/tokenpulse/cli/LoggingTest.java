package io.tokenpulse.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class LoggingTest {
    private static final String DJL = "org.slf4j.simpleLogger.log.ai.djl";
    private static final String KAFKA = "org.slf4j.simpleLogger.log.org.apache.kafka";

    @AfterEach
    void restoreDefaults() {
        System.clearProperty(DJL);
        System.clearProperty(KAFKA);
        System.clearProperty("org.slf4j.simpleLogger.log.kafka");
        System.clearProperty("org.slf4j.simpleLogger.log.state.change.logger");
        System.clearProperty("org.slf4j.simpleLogger.log.tokenpulse.stacktraces");
    }

    @Test
    void libraryWarningsAreHiddenByDefaultAndShownWithVerbose() {
        // each logger gets its level when it is created: fresh names on either side of the switch
        assertThat(LoggerFactory.getLogger("ai.djl.util.cuda.CudaUtils").isWarnEnabled())
                .isFalse();
        assertThat(LoggerFactory.getLogger("org.apache.kafka.test.Before").isWarnEnabled())
                .isFalse();
        // Kafka's errors too: those it recovers from come with stack traces; what the user must act
        // on reaches them as one line of the command's own
        assertThat(LoggerFactory.getLogger("org.apache.kafka.test.Before").isErrorEnabled())
                .isFalse();
        assertThat(LoggerFactory.getLogger("tokenpulse.stacktraces.test.Before").isErrorEnabled())
                .isFalse();

        Logging.showLibraryWarnings();

        assertThat(LoggerFactory.getLogger("ai.djl.test.After").isWarnEnabled()).isTrue();
        assertThat(LoggerFactory.getLogger("org.apache.kafka.test.After").isWarnEnabled())
                .isTrue();
        assertThat(LoggerFactory.getLogger("org.apache.kafka.test.After").isInfoEnabled())
                .isFalse();
        assertThat(LoggerFactory.getLogger("tokenpulse.stacktraces.test.After").isWarnEnabled())
                .isTrue();
    }
}
