package io.tokenpulse.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./tokenpulse platform}, then {@code bench} with its printed flags and no aggregator running:
 * no summary comes, and bench still prints the block and writes the result file of what is stored,
 * marked {@code incomplete}, exit 1; {@code replay} refuses the run, {@code replay --allow-incomplete}
 * scores it to the same file.
 */
class IncompleteRunIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String RUN_ID = "acceptance-no-aggregator";

    @TempDir
    Path home;

    @TempDir
    Path logs;

    @TempDir
    Path work;

    @Test
    void withoutAnAggregatorBenchStillWritesAResultMarkedIncompleteAndReplayScoresItWhenAllowed() throws Exception {
        Tokenpulse tokenpulse = new Tokenpulse(home, logs);
        try (Tokenpulse.Background platform = tokenpulse.start(
                "platform",
                "--data-dir",
                work.resolve("platform").toString(),
                "--kafka-port",
                Integer.toString(FreePorts.one()),
                "--registry-port",
                Integer.toString(FreePorts.one()))) {
            List<String> connection = PlatformFlagsIT.printedFlags(platform);
            List<String> bench = new ArrayList<>(List.of(
                    "bench",
                    "--simulate",
                    "--simulate-profile",
                    "deterministic",
                    "--dataset-name",
                    "random",
                    "--num-prompts",
                    "5",
                    "--random-input-len",
                    "16",
                    "--random-output-len",
                    "4",
                    "--metrics-port",
                    "0",
                    "--run-id",
                    RUN_ID,
                    "--summary-timeout-s",
                    "5",
                    "--save-result",
                    "--result-dir",
                    work.toString(),
                    "--result-filename",
                    "bench.json"));
            bench.addAll(connection);
            Tokenpulse.Result run = tokenpulse.run(Tokenpulse.ROOT, Duration.ofMinutes(3), bench);

            assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
            assertThat(run.stderr())
                    .contains("bench: no run summary for run " + RUN_ID + " within 5 s")
                    .contains("; the result above was scored from what the aggregator stored");
            assertThat(run.stdout())
                    .contains("============ Serving Benchmark Result ============")
                    .contains("Warning: incomplete result, missing 5 of 5 request metrics");
            JsonNode json = JSON.readTree(Files.readString(work.resolve("bench.json")));
            assertThat(json.get("incomplete").asText()).isEqualTo("5 of 5 request metrics");
            assertThat(json.get("num_prompts").asInt()).isEqualTo(5);
            assertThat(json.get("completed").asInt()).isZero();

            List<String> replay = new ArrayList<>(List.of("replay", "--run-id", RUN_ID, "--wait-s", "1"));
            replay.addAll(connection);
            Tokenpulse.Result refused = tokenpulse.run(Tokenpulse.ROOT, Duration.ofMinutes(2), replay);
            assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(1);
            assertThat(refused.stderr()).contains("run " + RUN_ID + " is not complete");

            replay.addAll(List.of(
                    "--allow-incomplete",
                    "--save-result",
                    "--result-dir",
                    work.toString(),
                    "--result-filename",
                    "replay.json"));
            Tokenpulse.Result allowed = tokenpulse.run(Tokenpulse.ROOT, Duration.ofMinutes(2), replay);
            assertThat(allowed.exitCode()).as(allowed.toString()).isZero();
            assertThat(allowed.stdout()).contains("Warning: incomplete result, missing 5 of 5 request metrics");
            assertThat(Files.readString(work.resolve("replay.json")))
                    .isEqualTo(Tokenpulse.withoutClientCpu(Files.readString(work.resolve("bench.json"))));
        }
    }
}
