package io.tokenpulse.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TopicLayoutTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            nullValues = "-",
            value = {
                "one broker: one copy           | 1 | - | - | 3 | 1 | 1",
                "two brokers: two copies        | 2 | - | - | 3 | 2 | 1",
                "three brokers: three, 2 in sync| 3 | - | - | 3 | 3 | 2",
                "five brokers: still three      | 5 | - | - | 3 | 3 | 2",
                "asked copies win               | 5 | 5 | - | 3 | 5 | 2",
                "asked one copy on three        | 3 | 1 | - | 3 | 1 | 1",
                "asked partitions               | 3 | - | 12 | 12 | 3 | 2",
            })
    void fitsTheClusterUnlessAsked(
            String why,
            int brokers,
            Integer askedReplication,
            Integer askedPartitions,
            int partitions,
            short replication,
            int minInsync) {
        TopicLayout layout = TopicLayout.fit(brokers, askedReplication, askedPartitions);
        assertThat(layout).isEqualTo(new TopicLayout(partitions, replication, minInsync));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            nullValues = "-",
            value = {
                "more copies than brokers | 1 | 3 | -  | --replication-factor 3 needs at least 3 brokers, but the cluster has 1",
                "zero copies              | 3 | 0 | -  | --replication-factor must be at least 1, got 0",
                "zero partitions          | 3 | - | 0  | --partitions must be at least 1, got 0",
                "no brokers               | 0 | - | -  | the cluster reports no brokers",
            })
    void badInputIsOneLine(String why, int brokers, Integer askedReplication, Integer askedPartitions, String message) {
        assertThatThrownBy(() -> TopicLayout.fit(brokers, askedReplication, askedPartitions))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message)
                .hasMessageNotContaining("\n");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "three copies ask two in sync | 3 | {min.insync.replicas=2}",
                "one copy keeps the default   | 1 | {}",
            })
    void minInsyncReplicasGoesIntoTheTopicConfig(String why, int brokers, String config) {
        assertThat(TopicLayout.fit(brokers, null, null).topicConfig()).hasToString(config);
    }
}
