package io.tokenpulse.platform.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class KafkaSettingsTest {

    @Test
    void bindHostDefaultsToLoopbackAndDataDirBecomesAbsolute() {
        KafkaSettings settings = new KafkaSettings(Path.of("data"), 0, 0, null, null);

        assertThat(settings.bindHost()).isEqualTo("127.0.0.1");
        assertThat(settings.dataDir()).isAbsolute();
        assertThat(settings.brokerProperties()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "negative kafka port      | -1    | 0     | 127.0.0.1 | pass --kafka-port between 1 and 65535",
                "kafka port past 65535    | 65536 | 0     | 127.0.0.1 | pass --kafka-port between 1 and 65535",
                "controller port past max | 0     | 70000 | 127.0.0.1 | pass --controller-port between 1 and 65535",
                "wildcard IPv4 bind host  | 0     | 0     | 0.0.0.0   | pass a concrete address such as 127.0.0.1",
            })
    void impossibleSettingsAreRejectedWithWhatToChange(
            String why, int kafkaPort, int controllerPort, String bindHost, String advice) {
        assertThatThrownBy(() -> new KafkaSettings(Path.of("data"), kafkaPort, controllerPort, bindHost, Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(advice);
    }

    @Test
    void childArgumentsCarryEverySettingAcross() {
        KafkaSettings settings = new KafkaSettings(
                Path.of("/tmp/kafka data"),
                9092,
                9093,
                "127.0.0.2",
                Map.of("log.retention.ms", "60000", "message.max.bytes", "2000000"));

        List<String> args = KafkaChildMain.toArgs(settings);

        assertThat(KafkaChildMain.fromArgs(args)).isEqualTo(settings);
    }
}
