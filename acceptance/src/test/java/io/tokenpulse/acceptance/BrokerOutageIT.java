package io.tokenpulse.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Duration;
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
        try (SeparatePipeline pipeline = SeparatePipeline.startOneBroker(tokenpulse, work.resolve("platform"))) {
            try (Tokenpulse.Background aggregate = pipeline.aggregate(tokenpulse)) {
                Tokenpulse.Background bench =
                        tokenpulse.start(Tokenpulse.ROOT, pipeline.bench(REQUESTS, 40, 8, results, "outage.json"));
                bench.awaitLine(SeparatePipeline.MAIN_RUN, Duration.ofSeconds(120));
                Thread.sleep(5_000);
                pipeline.killPlatform();
                Thread.sleep(DOWN.toMillis());
                pipeline.startPlatformAgain();

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
        }
    }
}
