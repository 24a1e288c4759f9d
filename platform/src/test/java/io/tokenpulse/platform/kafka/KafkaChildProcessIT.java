package io.tokenpulse.platform.kafka;

import static io.tokenpulse.platform.kafka.KafkaTestClients.consume;
import static io.tokenpulse.platform.kafka.KafkaTestClients.createTopics;
import static io.tokenpulse.platform.kafka.KafkaTestClients.produce;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaChildProcessIT {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void recordsSurviveAKilledChildBrokerAndItsRestartOnTheSameDir(@TempDir Path dataDir) throws Exception {
        try (KafkaChildProcess first = timedStart(KafkaSettings.of(dataDir), "child JVM, fresh data dir")) {
            createTopics(first.bootstrapServers(), "crash");
            produce(first.bootstrapServers(), "crash", List.of("acked-1", "acked-2", "acked-3"));

            first.kill();

            assertThat(first.isAlive()).isFalse();
            assertThat(cleanShutdownMarker(dataDir)).doesNotExist();
        }

        try (KafkaChildProcess second = timedStart(KafkaSettings.of(dataDir), "child JVM, restart after kill -9")) {
            assertThat(consume(second.bootstrapServers(), "crash", "read_committed", 3, WAIT))
                    .containsExactlyInAnyOrder("acked-1", "acked-2", "acked-3");
        }
    }

    @Test
    void stopShutsTheChildDownCleanlyAndItsOutputGoesToTheLogFile(@TempDir Path dataDir) throws Exception {
        KafkaChildProcess child = timedStart(KafkaSettings.of(dataDir), "child JVM, fresh data dir");

        assertThat(child.stop()).isZero();
        assertThat(child.isAlive()).isFalse();
        assertThat(cleanShutdownMarker(dataDir)).exists();
        assertThat(child.logFile()).isEqualTo(dataDir.resolve("kafka-child.log"));
        assertThat(Files.readString(child.logFile())).contains("READY " + child.bootstrapServers());
    }

    @Test
    void sigtermShutsTheChildBrokerDownCleanly(@TempDir Path dataDir) throws Exception {
        try (KafkaChildProcess child = KafkaChildProcess.start(KafkaSettings.of(dataDir))) {
            ProcessHandle jvm = ProcessHandle.of(child.pid()).orElseThrow();

            jvm.destroy();
            jvm.onExit().get(30, TimeUnit.SECONDS);

            assertThat(child.isAlive()).isFalse();
            assertThat(cleanShutdownMarker(dataDir)).exists();
        }
    }

    @Test
    void aSecondBrokerRefusesTheDataDirAChildBrokerIsUsing(@TempDir Path dataDir) {
        try (KafkaChildProcess child = KafkaChildProcess.start(KafkaSettings.of(dataDir))) {

            assertThatThrownBy(() -> EmbeddedKafka.start(KafkaSettings.of(dataDir)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("Kafka data dir " + dataDir
                            + " is in use by another running broker: stop it or pass another --data-dir");
            assertThat(child.isAlive()).isTrue();
        }
    }

    @Test
    void explicitPortInUseFailsBeforeAChildJvmStarts(@TempDir Path dataDir) throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            int port = taken.getLocalPort();

            assertThatThrownBy(() ->
                            KafkaChildProcess.start(KafkaSettings.of(dataDir).withKafkaPort(port)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("127.0.0.1:" + port
                            + " is already in use: pass another --kafka-port or omit it to pick a free one");
        }
    }

    @Test
    void childFailureIsReportedWithItsReasonAndLogFile(@TempDir Path dataDir) {
        // A broker property Kafka rejects makes the child fail after the JVM started.
        KafkaSettings settings =
                new KafkaSettings(dataDir, 0, 0, "127.0.0.1", java.util.Map.of("num.network.threads", "not-a-number"));

        assertThatThrownBy(() -> KafkaChildProcess.start(settings))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("num.network.threads")
                .hasMessageContaining(dataDir.resolve("kafka-child.log").toString());
    }

    /** Kafka's log manager writes this file only when it shut down cleanly. */
    static Path cleanShutdownMarker(Path dataDir) {
        return dataDir.resolve(EmbeddedKafka.STORAGE_DIR).resolve(".kafka_cleanshutdown");
    }

    private static KafkaChildProcess timedStart(KafkaSettings settings, String what) {
        long startNs = System.nanoTime();
        KafkaChildProcess started = KafkaChildProcess.start(settings);
        System.out.printf(
                "start-to-ready (%s): %d ms%n", what, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs));
        return started;
    }
}
