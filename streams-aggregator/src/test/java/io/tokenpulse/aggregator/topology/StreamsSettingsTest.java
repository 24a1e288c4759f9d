package io.tokenpulse.aggregator.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

class StreamsSettingsTest {

    private static Object mainConsumerInstanceId(StreamsSettings settings, Properties overrides) {
        StreamsConfig config = new StreamsConfig(settings.toProperties(overrides));
        return config.getMainConsumerConfigs("group", "client", 0).get(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
    }

    @Test
    void theMainConsumerIsAStaticMemberNamedAfterTheStateDirSoARestartReplacesIt() {
        StreamsSettings settings = StreamsSettings.defaults("127.0.0.1:9092").withStateDir(Path.of("/tmp/a"));

        Object id = mainConsumerInstanceId(settings, new Properties());

        // Kafka Streams suffixes the thread index
        assertThat(id).isEqualTo(StreamsSettings.staticMemberId(settings.applicationId(), Path.of("/tmp/a")) + "-0");
        assertThat(id)
                .isEqualTo(mainConsumerInstanceId(settings.withStateDir(Path.of("/tmp/../tmp/a")), new Properties()));
        assertThat(id).isNotEqualTo(mainConsumerInstanceId(settings.withStateDir(Path.of("/tmp/b")), new Properties()));
        assertThat(id).isNotEqualTo(mainConsumerInstanceId(settings.withApplicationId("other"), new Properties()));
    }

    /**
     * An idle aggregator (a run waiting on a slow server) must cost next to no CPU (issue 30): its
     * stream thread loops twice a second, not ten times; a user's setting wins.
     */
    @Test
    void theStreamThreadWaitsHalfASecondForRecordsUnlessTheUserSaysOtherwise() {
        StreamsSettings settings = StreamsSettings.defaults("127.0.0.1:9092");
        assertThat(new StreamsConfig(settings.toProperties(new Properties())).getLong(StreamsConfig.POLL_MS_CONFIG))
                .isEqualTo(500L);
        Properties given = new Properties();
        given.put(StreamsConfig.POLL_MS_CONFIG, "100");
        assertThat(new StreamsConfig(settings.toProperties(given)).getLong(StreamsConfig.POLL_MS_CONFIG))
                .isEqualTo(100L);
    }

    @Test
    void everyStateStoreSharesOneBoundedRocksDbBudget() {
        StreamsConfig config =
                new StreamsConfig(StreamsSettings.defaults("127.0.0.1:9092").toProperties(new Properties()));
        assertThat(config.getClass(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG))
                .isEqualTo(BoundedRocksDbMemory.class);
        try (org.rocksdb.Options options = new org.rocksdb.Options()) {
            options.setTableFormatConfig(new org.rocksdb.BlockBasedTableConfig());
            new BoundedRocksDbMemory().setConfig("store", options, java.util.Map.of());
            assertThat(options.writeBufferSize()).isEqualTo(4L * 1024 * 1024);
            assertThat(options.maxWriteBufferNumber()).isEqualTo(2);
            assertThat(((org.rocksdb.BlockBasedTableConfig) options.tableFormatConfig()).cacheIndexAndFilterBlocks())
                    .isTrue();
        }
    }

    /** One stream thread unless asked ({@code aggregate --stream-threads}); a user's Kafka property wins. */
    @Test
    void oneStreamThreadByDefaultTheGivenNumberOtherwiseAndAKafkaPropertyWins() {
        StreamsSettings settings = StreamsSettings.defaults("127.0.0.1:9092");
        assertThat(new StreamsConfig(settings.toProperties(new Properties()))
                        .getInt(StreamsConfig.NUM_STREAM_THREADS_CONFIG))
                .isEqualTo(1);
        assertThat(new StreamsConfig(settings.withStreamThreads(3).toProperties(new Properties()))
                        .getInt(StreamsConfig.NUM_STREAM_THREADS_CONFIG))
                .isEqualTo(3);
        Properties overrides = new Properties();
        overrides.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, "2");
        assertThat(new StreamsConfig(settings.withStreamThreads(3).toProperties(overrides))
                        .getInt(StreamsConfig.NUM_STREAM_THREADS_CONFIG))
                .isEqualTo(2);
        assertThatThrownBy(() -> settings.withStreamThreads(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("stream threads must be >= 1, got 0");
    }

    @Test
    void commitsEveryQuarterSecondUnlessAKafkaPropertySaysOtherwise() {
        StreamsSettings settings = StreamsSettings.defaults("127.0.0.1:9092");
        assertThat(new StreamsConfig(settings.toProperties(new Properties()))
                        .getLong(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG))
                .isEqualTo(250L);
        Properties overrides = new Properties();
        overrides.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "100");
        assertThat(new StreamsConfig(settings.toProperties(overrides)).getLong(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG))
                .isEqualTo(100L);
    }

    @Test
    void theInstanceIdHoldsOnlyCharactersKafkaAccepts() {
        assertThat(StreamsSettings.staticMemberId("tokenpulse-aggregator", "bench host:1/é", Path.of("/tmp/a b")))
                .startsWith("tokenpulse-aggregator-bench_host_1__-")
                .matches("[a-zA-Z0-9._-]+");
    }

    @Test
    void aUserGivenInstanceIdWins() {
        Properties overrides = new Properties();
        overrides.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG), "mine");

        assertThat(mainConsumerInstanceId(StreamsSettings.defaults("127.0.0.1:9092"), overrides))
                .isEqualTo("mine-0");
    }

    @Test
    void theRestoreConsumerHasNoInstanceIdItHasNoGroup() {
        StreamsConfig config =
                new StreamsConfig(StreamsSettings.defaults("127.0.0.1:9092").toProperties(new Properties()));

        assertThat(config.getRestoreConsumerConfigs("client"))
                .doesNotContainKey(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
    }

    /** Not a fetch per produce request of the load generator: 64 KiB or half a second, unless the user says. */
    @Test
    void theMainConsumerFetchesSixtyFourKibOrEveryHalfSecond() {
        StreamsSettings settings = StreamsSettings.defaults("127.0.0.1:9092");
        var main = new StreamsConfig(settings.toProperties(new Properties())).getMainConsumerConfigs("g", "c", 0);
        assertThat(main).containsEntry(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, "65536");
        assertThat(main).containsEntry(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "500");

        Properties given = new Properties();
        given.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.FETCH_MIN_BYTES_CONFIG), "1");
        assertThat(new StreamsConfig(settings.toProperties(given)).getMainConsumerConfigs("g", "c", 0))
                .containsEntry(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, "1");
    }
}
