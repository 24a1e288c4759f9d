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
    }

    @Test
    void libraryWarningsAreHiddenByDefaultAndShownWithVerbose() {
        // each logger gets its level when it is created: fresh names on either side of the switch
        assertThat(LoggerFactory.getLogger("ai.djl.util.cuda.CudaUtils").isWarnEnabled())
                .isFalse();
        assertThat(LoggerFactory.getLogger("org.apache.kafka.test.Before").isWarnEnabled())
                .isFalse();
        assertThat(LoggerFactory.getLogger("org.apache.kafka.test.Before").isErrorEnabled())
                .isTrue();

        Logging.showLibraryWarnings();

        assertThat(LoggerFactory.getLogger("ai.djl.test.After").isWarnEnabled()).isTrue();
        assertThat(LoggerFactory.getLogger("org.apache.kafka.test.After").isWarnEnabled())
                .isTrue();
        assertThat(LoggerFactory.getLogger("org.apache.kafka.test.After").isInfoEnabled())
                .isFalse();
    }
}
