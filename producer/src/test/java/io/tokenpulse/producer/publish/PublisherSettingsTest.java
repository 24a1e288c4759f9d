package io.tokenpulse.producer.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class PublisherSettingsTest {

    @Test
    void aBufferSmallerThanOneBatchIsRefusedWithWhatToChange() {
        PublisherSettings settings = PublisherSettings.of("127.0.0.1:9092");
        assertThatThrownBy(() -> settings.withOverrides(Map.of("buffer.memory", "1024")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Kafka property buffer.memory=1024 is smaller than batch.size=262144: no record would fit;"
                        + " raise buffer.memory or lower batch.size");
        assertThat(settings.withOverrides(Map.of("buffer.memory", "1024", "batch.size", "1024"))
                        .producerProperties()
                        .getProperty("buffer.memory"))
                .isEqualTo("1024");
        assertThatThrownBy(() -> settings.withOverrides(Map.of("batch.size", "big")))
                .hasMessage("Kafka property batch.size=big is not a number of bytes");
    }

    @Test
    void theSenderMayWaitForKafkaButNotForever() {
        assertThat(PublisherSettings.of("127.0.0.1:9092").maxBlockMs()).isEqualTo(10_000);
        assertThat(PublisherSettings.of("127.0.0.1:9092")
                        .withOverrides(Map.of("max.block.ms", "5000"))
                        .maxBlockMs())
                .isEqualTo(5_000);
    }

    /** A produce request every 0.2 s rather than 0.05 s: each costs three threads work of their own. */
    @Test
    void recordsLingerTwoHundredMillisecondsUnlessAKafkaPropertySaysOtherwise() {
        assertThat(PublisherSettings.of("127.0.0.1:9092").producerProperties().getProperty("linger.ms"))
                .isEqualTo("200");
        assertThat(PublisherSettings.of("127.0.0.1:9092")
                        .withOverrides(Map.of("linger.ms", "20"))
                        .producerProperties()
                        .getProperty("linger.ms"))
                .isEqualTo("20");
    }
}
