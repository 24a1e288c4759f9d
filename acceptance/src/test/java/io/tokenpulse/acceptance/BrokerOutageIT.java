package io.tokenpulse.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 15: the broker of a separate {@code ./tokenpulse platform} is killed (SIGKILL) while a
 * {@code bench} against a separate {@code aggregate} and {@code simulate} is sending, and started
 * again 15 s later on the same data dir and ports (longer than the publisher's {@code max.block.ms},
 * so records go to the spool). The run still ends with every request in its block and result file,
 * and no record lost.
 */
class BrokerOutageIT {

    private static final int REQUESTS = 250;
    private static final Duration DOWN = Duration.ofSeconds(15);

    @TempDir
    Path home;

    @TempDir
    Path logs;

    @TempDir
    Path work;

    @Test
    void aBrokerKilledMidRunAndRestartedLosesNoRecordAndTheRunGetsItsResult() throws Exception {
        Tokenpulse tokenpulse = new Tokenpulse(home, logs);
        Path results = work.resolve("results");
        String[] platformArgs = {
            "platform",
            "--data-dir",
            work.resolve("platform").toString(),
            "--kafka-port",
            Integer.toString(FreePorts.one()),
            "--registry-port",
            Integer.toString(FreePorts.one())
        };
        Tokenpulse.Background platform = tokenpulse.start(platformArgs);
        try (Tokenpulse.Background simulator = tokenpulse.start(
                "simulate", "--port", "0", "--profile", "deterministic", "--ttft-ms", "50", "--gap-ms", "20")) {
            List<String> connection = PlatformFlagsIT.printedFlags(platform);
            String baseUrl = simulator
                    .awaitLine(SimulateIT.SERVING, Duration.ofSeconds(60))
                    .group(2);
            try (Tokenpulse.Background aggregate =
                    tokenpulse.start(PlatformFlagsIT.args("aggregate", connection, "--metrics-port", "0")
                            .toArray(String[]::new))) {
                aggregate.awaitLine(Pattern.compile("^Aggregator running: "), Duration.ofSeconds(120));
                Tokenpulse.Background bench = tokenpulse.start(
                        Tokenpulse.ROOT,
                        PlatformFlagsIT.args(
                                "bench",
                                connection,
                                "--base-url",
                                baseUrl,
                                "--model",
                                "facebook/opt-125m",
                                "--dataset-name",
                                "random",
                                "--num-prompts",
                                Integer.toString(REQUESTS),
                                "--random-input-len",
                                "16",
                                "--random-output-len",
                                "40",
                                "--request-rate",
                                "8",
                                "--metrics-port",
                                "0",
                                "--disable-tqdm",
                                "--save-result",
                                "--result-dir",
                                results.toString(),
                                "--result-filename",
                                "outage.json"));
                bench.awaitLine(Pattern.compile("^Burstiness factor: "), Duration.ofSeconds(120));
                Thread.sleep(5_000);
                platform.kill();
                Thread.sleep(DOWN.toMillis());
                platform = tokenpulse.start(platformArgs);
                PlatformFlagsIT.printedFlags(platform);

                Tokenpulse.Result run = bench.finish(Duration.ofMinutes(6));

                assertThat(run.exitCode()).as(run.toString()).isZero();
                assertThat(run.stderr())
                        .as("records went to the spool and came back")
                        .contains("keeping records in")
                        .contains("Kafka is back");
                assertThat(run.stdoutLines())
                        .as(run.toString())
                        .anySatisfy(line -> assertThat(line).matches("Successful requests: +" + REQUESTS + " *"))
                        // a loaded machine may make the client the bottleneck; nothing else may warn
                        .noneSatisfy(line -> assertThat(line)
                                .startsWith("Warning:")
                                .doesNotStartWith("Warning: the client was the bottleneck"));
                JsonNode result = new ObjectMapper()
                        .readTree(results.resolve("outage.json").toFile());
                assertThat(result.path("completed").asInt()).isEqualTo(REQUESTS);
                assertThat(result.path("total_output_tokens").asInt()).isEqualTo(REQUESTS * 40);
                assertThat(result.has("records_not_delivered"))
                        .as(result.toString())
                        .isFalse();
            }
        } finally {
            platform.close();
        }
    }
}
