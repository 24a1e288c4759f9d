package io.tokenpulse.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tokenpulse.platform.kafka.EmbeddedKafka;
import io.tokenpulse.platform.kafka.KafkaSettings;
import io.tokenpulse.producer.ClockOffset;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shards' start barrier on a real broker: shards that come apart start at one instant; mistakes are one line. */
class KafkaStartBarrierIT {

    private static final String TOPIC = "tokenpulse.shard-barrier";

    @TempDir
    static Path dataDir;

    private static EmbeddedKafka kafka;
    private static Properties client;

    @BeforeAll
    static void startKafka() {
        kafka = EmbeddedKafka.start(KafkaSettings.of(dataDir));
        client = new Properties();
        client.putAll(kafka.clientProperties());
    }

    @AfterAll
    static void stopKafka() {
        kafka.close();
    }

    private static KafkaStartBarrier barrier(String runId, long timeoutS) {
        return new KafkaStartBarrier(client, TOPIC, runId, Duration.ofSeconds(timeoutS));
    }

    @Test
    void shardsThatArriveApartStartTogetherAfterTheLast() throws Exception {
        ByteArrayOutputStream first = new ByteArrayOutputStream();
        CompletableFuture<Long> early = CompletableFuture.supplyAsync(() -> startedAtMs("apart", 0, first));
        Thread.sleep(3_000);
        long lateAnnouncedMs = System.currentTimeMillis();
        long late = startedAtMs("apart", 1, new ByteArrayOutputStream());

        long earlyStart = early.get(60, TimeUnit.SECONDS);
        assertThat(first.toString(StandardCharsets.UTF_8))
                .startsWith("Shard 0 of 2: waiting up to 60 s for the other shards of run apart")
                .contains("All 2 shards ready; starting at ");
        assertThat(earlyStart).as("the first shard waited for the second").isGreaterThan(lateAnnouncedMs);
        // both wake at the same instant, each as late as its thread is scheduled on a busy machine
        assertThat(Math.abs(earlyStart - late)).isLessThan(1_000);
    }

    @Test
    void measuresThisHostsClockAgainstTheBrokersAppendTime() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ClockOffset clock = barrier("clock", 30)
                .await(0, 1, new PrintStream(out, true, StandardCharsets.UTF_8))
                .orElseThrow();

        // the broker runs on this host's clock: the true offset is 0
        assertThat(Math.abs(clock.offsetMs())).isLessThanOrEqualTo(clock.uncertaintyMs());
        assertThat(out.toString(StandardCharsets.UTF_8)).contains(" on the broker's clock (this host's clock ");
    }

    @Test
    void aMissingShardIsOneLineNamingItAfterTheTimeout() {
        assertThatThrownBy(() -> barrier("alone", 2).await(1, 3, new PrintStream(new ByteArrayOutputStream())))
                .isInstanceOf(UserError.class)
                .hasMessage("shards 0, 2 of run alone did not show up within 2 s: start every shard with --run-id"
                        + " alone --shard-count 3 and its own --shard-index, or raise --shard-start-timeout-s");
    }

    @Test
    void anotherShardCountIsOneLineBeforeTheLoad() throws Exception {
        CompletableFuture<Long> three = CompletableFuture.supplyAsync(() -> startedAtMs("counts", 0, 3));
        Thread.sleep(1_000);
        assertThatThrownBy(() -> barrier("counts", 30).await(1, 2, new PrintStream(new ByteArrayOutputStream())))
                .isInstanceOf(UserError.class)
                .hasMessage("shard 0 of run counts was started with --shard-count 3, this shard (1) with"
                        + " --shard-count 2: start every shard of a run with the same --shard-count");
        three.cancel(true);
    }

    private static long startedAtMs(String runId, int index, ByteArrayOutputStream out) {
        try {
            barrier(runId, 60).await(index, 2, new PrintStream(out, true, StandardCharsets.UTF_8));
            return System.currentTimeMillis();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static long startedAtMs(String runId, int index, int count) {
        try {
            barrier(runId, 10).await(index, count, new PrintStream(new ByteArrayOutputStream()));
            return System.currentTimeMillis();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        } catch (UserError e) {
            return -1; // its partners never all came: expected here
        }
    }
}
