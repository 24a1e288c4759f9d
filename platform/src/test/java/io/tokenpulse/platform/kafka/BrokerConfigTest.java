package io.tokenpulse.platform.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class BrokerConfigTest {

    /** Each of these threads wakes every 0.3 s while idle: one node's few clients need few (issue 30). */
    @Test
    void oneNodeRunsFewRequestHandlersAndNetworkThreads() {
        Properties p = BrokerConfig.build(KafkaSettings.of(Path.of("data")), Path.of("data"), 9092, 9093);

        assertThat(p.getProperty("num.io.threads")).isEqualTo("2");
        assertThat(p.getProperty("num.network.threads")).isEqualTo("1");
    }

    @Test
    void givenBrokerPropertiesWin() {
        KafkaSettings settings = new KafkaSettings(
                Path.of("data"), 0, 0, null, Map.of("num.io.threads", "8", "num.network.threads", "3"));

        Properties p = BrokerConfig.build(settings, Path.of("data"), 9092, 9093);

        assertThat(p.getProperty("num.io.threads")).isEqualTo("8");
        assertThat(p.getProperty("num.network.threads")).isEqualTo("3");
    }
}
