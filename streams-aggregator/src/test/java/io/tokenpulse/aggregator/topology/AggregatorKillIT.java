package io.tokenpulse.aggregator.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.tokenpulse.platform.Platform;
import io.tokenpulse.schemas.TopicAdmin;
import io.tokenpulse.schemas.Topics;
import io.tokenpulse.schemas.registry.SchemaRegistryClient;
import io.tokenpulse.schemas.registry.SchemaRegistrySettings;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An aggregator killed without a close ({@code kill -9}) must not hold the next start on the same
 * broker and data dir until its group session expires (45 s).
 */
class AggregatorKillIT {
    private static final String PREFIX = "it.";

    @TempDir
    Path dir;

    @Test
    void theNextAggregatorRunsWithinSecondsOfAKilledOne() throws Exception {
        try (Platform platform = Platform.start(new Platform.Settings(dir.resolve("kafka"), 0, 0))) {
            Topics topics = Topics.create(
                    PREFIX,
                    new SchemaRegistryClient(
                            SchemaRegistrySettings.of(platform.registryUrl().toString())),
                    true);
            Properties client = new Properties();
            client.put("bootstrap.servers", platform.bootstrapServers());
            TopicAdmin.ensureExist(topics, client, 1, (short) 1, Duration.ofSeconds(30));
            Path stateDir = dir.resolve("state");

            Process child = startChild(platform, stateDir);
            try {
                assertThat(awaitRunningLine(child))
                        .as("the child aggregator printed that it runs")
                        .isTrue();
                child.destroyForcibly(); // SIGKILL: no close, no leave-group
                assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
            } finally {
                child.destroyForcibly();
            }

            long startNs = System.nanoTime();
            try (Aggregator next = Aggregator.start(
                    topics,
                    StreamsSettings.defaults(platform.bootstrapServers()).withStateDir(stateDir),
                    new Properties())) {
                boolean running = next.awaitRunning(Duration.ofSeconds(90));
                double seconds = (System.nanoTime() - startNs) / 1e9;
                System.out.printf("aggregator after a kill -9: RUNNING after %.1f s%n", seconds);
                assertThat(running).isTrue();
                assertThat(seconds).as("seconds to RUNNING").isLessThan(20);
            }
        }
    }

    private static Process startChild(Platform platform, Path stateDir) throws Exception {
        List<String> command = List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                AggregatorChildMain.class.getName(),
                platform.bootstrapServers(),
                platform.registryUrl().toString(),
                PREFIX,
                stateDir.toString());
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    private static boolean awaitRunningLine(Process child) throws Exception {
        CompletableFuture<Boolean> running = CompletableFuture.supplyAsync(() -> {
            try (BufferedReader out =
                    new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null) {
                    if (line.equals(AggregatorChildMain.RUNNING)) {
                        return true;
                    }
                }
                return false;
            } catch (Exception e) {
                return false;
            }
        });
        return running.get(90, TimeUnit.SECONDS);
    }
}
