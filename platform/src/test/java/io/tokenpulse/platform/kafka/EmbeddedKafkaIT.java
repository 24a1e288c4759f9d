package io.tokenpulse.platform.kafka;

import static io.tokenpulse.platform.kafka.KafkaTestClients.consume;
import static io.tokenpulse.platform.kafka.KafkaTestClients.createTopics;
import static io.tokenpulse.platform.kafka.KafkaTestClients.durableProducer;
import static io.tokenpulse.platform.kafka.KafkaTestClients.produce;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedKafkaIT {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    static Path sharedDir;

    private static EmbeddedKafka kafka;

    @BeforeAll
    static void startBroker() {
        kafka = timedStart(KafkaSettings.of(sharedDir), "in-process, fresh data dir");
    }

    @AfterAll
    static void stopBroker() {
        kafka.close();
    }

    @Test
    void idempotentAcksAllRecordsRoundTripThroughCreatedTopics() throws Exception {
        createTopics(kafka.bootstrapServers(), "chunks", "requests");
        assertThat(KafkaTestClients.topicNames(kafka.bootstrapServers())).contains("chunks", "requests");

        produce(kafka.bootstrapServers(), "chunks", List.of("a", "b", "c"));

        assertThat(consume(kafka.bootstrapServers(), "chunks", "read_uncommitted", 3, WAIT))
                .containsExactlyInAnyOrder("a", "b", "c");
    }

    /** Registering an MBean for each of the broker's metrics was start-up CPU for a JMX nobody reads. */
    @Test
    void theBrokerRegistersNoMetricMBeans() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();

        assertThat(server.queryNames(new ObjectName("kafka.server:*"), null)).isEmpty();
        assertThat(server.queryNames(new ObjectName("kafka.network:*"), null)).isEmpty();
    }

    @Test
    void readCommittedConsumerSeesCommittedTransactionsButNotAbortedOnes() throws Exception {
        createTopics(kafka.bootstrapServers(), "tx-out");
        try (KafkaProducer<String, String> producer = durableProducer(
                kafka.bootstrapServers(), Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "tokenpulse-test-tx"))) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>("tx-out", "k", "committed-1"));
            producer.send(new ProducerRecord<>("tx-out", "k", "committed-2"));
            producer.commitTransaction();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>("tx-out", "k", "aborted"));
            producer.flush();
            producer.abortTransaction();
        }

        assertThat(consume(kafka.bootstrapServers(), "tx-out", "read_committed", 2, WAIT))
                .containsExactly("committed-1", "committed-2");
        // The aborted record is in the log: only the isolation level hides it.
        assertThat(consume(kafka.bootstrapServers(), "tx-out", "read_uncommitted", 3, WAIT))
                .contains("aborted");
    }

    @Test
    void restartOnTheSameDataDirKeepsClusterIdTopicsAndRecords(@TempDir Path dataDir) throws Exception {
        String clusterId;
        String firstBootstrap;
        try (EmbeddedKafka first = timedStart(KafkaSettings.of(dataDir), "in-process, fresh data dir")) {
            clusterId = first.clusterId();
            firstBootstrap = first.bootstrapServers();
            createTopics(first.bootstrapServers(), "kept");
            produce(first.bootstrapServers(), "kept", List.of("before-restart-1", "before-restart-2"));
        }
        assertThat(KafkaChildProcessIT.cleanShutdownMarker(dataDir)).exists();

        try (EmbeddedKafka second = timedStart(KafkaSettings.of(dataDir), "in-process, restart on same data dir")) {
            assertThat(second.clusterId()).isEqualTo(clusterId);
            System.out.printf("restart moved bootstrap %s -> %s%n", firstBootstrap, second.bootstrapServers());
            assertThat(KafkaTestClients.topicNames(second.bootstrapServers())).contains("kept");
            assertThat(consume(second.bootstrapServers(), "kept", "read_committed", 2, WAIT))
                    .containsExactlyInAnyOrder("before-restart-1", "before-restart-2");
        }
    }

    @Test
    void explicitPortInUseFailsWithOneLineMessageNamingHostAndPort(@TempDir Path dataDir) throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            int port = taken.getLocalPort();

            assertThatThrownBy(
                            () -> EmbeddedKafka.start(KafkaSettings.of(dataDir).withKafkaPort(port)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("127.0.0.1:" + port
                            + " is already in use: pass another --kafka-port or omit it to pick a free one");
        }
    }

    @Test
    void brokerPropertyKafkaRejectsFailsWithOneLineMessageNamingIt(@TempDir Path dataDir) {
        KafkaSettings settings = new KafkaSettings(dataDir, 0, 0, null, Map.of("num.network.threads", "many"));

        assertThatThrownBy(() -> EmbeddedKafka.start(settings))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Kafka rejected a broker property: Invalid value many for configuration num.network.threads:"
                                + " Not a number of type INT");
    }

    static EmbeddedKafka timedStart(KafkaSettings settings, String what) {
        long startNs = System.nanoTime();
        EmbeddedKafka started = EmbeddedKafka.start(settings);
        System.out.printf(
                "start-to-ready (%s): %d ms%n", what, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs));
        return started;
    }
}
