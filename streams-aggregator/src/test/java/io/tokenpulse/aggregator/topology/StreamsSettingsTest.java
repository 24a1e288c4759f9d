package io.tokenpulse.aggregator.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

class StreamsSettingsTest {

    private static Object mainConsumerLeaveGroupOnClose(Properties overrides) {
        StreamsConfig config = new StreamsConfig(StreamsSettings.defaults("127.0.0.1:9092").toProperties(overrides));
        return config.getMainConsumerConfigs("group", "client", 0).get(StreamsSettings.LEAVE_GROUP_ON_CLOSE);
    }

    @Test
    void mainConsumerLeavesTheGroupOnCloseSoTheNextStartNeedNotWaitForASessionTimeout() {
        // Kafka Streams' own default is false; what counts is the value after its merge.
        assertThat(mainConsumerLeaveGroupOnClose(new Properties())).isEqualTo("true");
    }

    @Test
    void aUserOverrideOfLeaveGroupOnCloseWins() {
        Properties overrides = new Properties();
        overrides.put(StreamsConfig.consumerPrefix(StreamsSettings.LEAVE_GROUP_ON_CLOSE), "false");
        assertThat(mainConsumerLeaveGroupOnClose(overrides)).isEqualTo("false");
    }
}
