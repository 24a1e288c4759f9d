package io.tokenpulse.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 15, scale-out: one run split over two {@code bench} shards ({@code --shard-index/--shard-count})
 * and scored by two {@code aggregate} instances (each with a home of its own, as on two machines),
 * one of them killed (SIGKILL) mid-run, gives one summary with the same counts as one generator and
 * one aggregator on the same schedule.
 */
class ScaleOutIT {

    private static final int REQUESTS = 120;
    private static final Pattern RUNNING = Pattern.compile("^Aggregator running: ");

    @TempDir
    Path work;

    @TempDir
    Path logs;

    private List<String> connection;
    private String baseUrl;

    @Test
    void twoShardsAndTwoAggregatorsOneKilledGiveTheCountsOfOneGeneratorAndOneAggregator() throws Exception {
        Tokenpulse tokenpulse = new Tokenpulse(home("platform"), logs);
        Path results = work.resolve("results");
        try (Tokenpulse.Background platform = tokenpulse.start(
                        "platform",
                        "--data-dir",
                        work.resolve("platform").toString(),
                        "--kafka-port",
                        Integer.toString(FreePorts.one()),
                        "--registry-port",
                        Integer.toString(FreePorts.one()));
                Tokenpulse.Background simulator = tokenpulse.start(
                        "simulate", "--port", "0", "--profile", "deterministic", "--ttft-ms", "50", "--gap-ms", "20")) {
            connection = PlatformFlagsIT.printedFlags(platform);
            baseUrl = simulator
                    .awaitLine(SimulateIT.SERVING, Duration.ofSeconds(60))
                    .group(2);
            try (Tokenpulse.Background first = new Tokenpulse(home("aggregate-1"), logs).start(aggregate())) {
                first.awaitLine(RUNNING, Duration.ofSeconds(120));
                Tokenpulse.Background singleRun = new Tokenpulse(home("bench-single"), logs)
                        .start(Tokenpulse.ROOT, bench("single", 0, 1, results));

                // The second aggregator starts while the single run goes on; it joins the group only
                // when that run's records are already flowing, which must not change them either.
                try (Tokenpulse.Background second = new Tokenpulse(home("aggregate-2"), logs).start(aggregate())) {
                    BenchAgainstSimulatorIT.assertCompleted(singleRun.finish(Duration.ofMinutes(4)), REQUESTS);
                    second.awaitLine(RUNNING, Duration.ofSeconds(120));
                    Tokenpulse.Background shard0 = new Tokenpulse(home("bench-0"), logs)
                            .start(Tokenpulse.ROOT, bench("sharded", 0, 2, results));
                    Tokenpulse.Background shard1 = new Tokenpulse(home("bench-1"), logs)
                            .start(Tokenpulse.ROOT, bench("sharded", 1, 2, results));
                    shard0.awaitLine(Pattern.compile("^Burstiness factor: "), Duration.ofSeconds(120));
                    Thread.sleep(3_000);
                    second.kill();

                    for (Tokenpulse.Result shard :
                            List.of(shard0.finish(Duration.ofMinutes(5)), shard1.finish(Duration.ofMinutes(5)))) {
                        assertThat(shard.exitCode()).as(shard.toString()).isZero();
                        assertThat(shard.stdoutLines())
                                .as(shard.toString())
                                .anySatisfy(
                                        line -> assertThat(line).matches("Successful requests: +" + REQUESTS + " *"));
                    }
                }
            }
        }
        ObjectMapper json = new ObjectMapper();
        JsonNode one = json.readTree(results.resolve("single-0.json").toFile());
        for (String shard : List.of("sharded-0.json", "sharded-1.json")) {
            JsonNode split = json.readTree(results.resolve(shard).toFile());
            for (String key : List.of("num_prompts", "completed", "total_input_tokens", "total_output_tokens")) {
                assertThat(split.path(key).asLong())
                        .as(shard + " " + key)
                        .isEqualTo(one.path(key).asLong());
            }
            assertThat(split.path("completed").asInt()).isEqualTo(REQUESTS);
        }
    }

    private Path home(String name) throws Exception {
        return java.nio.file.Files.createDirectories(work.resolve("home-" + name));
    }

    private String[] aggregate() {
        // The broker's shortest session (group.min.session.timeout.ms): the survivor takes the killed
        // aggregator's partitions after 6 s instead of the default 45 s.
        return PlatformFlagsIT.args(
                        "aggregate",
                        connection,
                        "--metrics-port",
                        "0",
                        "--kafka-property",
                        "session.timeout.ms=6000",
                        "--kafka-property",
                        "heartbeat.interval.ms=1000")
                .toArray(String[]::new);
    }

    private List<String> bench(String runId, int shard, int shards, Path results) {
        List<String> args = new ArrayList<>(PlatformFlagsIT.args(
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
                "30",
                "--random-range-ratio",
                "0.5",
                "--request-rate",
                "10",
                "--run-id",
                runId,
                "--shard-index",
                Integer.toString(shard),
                "--shard-count",
                Integer.toString(shards),
                "--metrics-port",
                "0",
                "--disable-tqdm",
                "--save-result",
                "--result-dir",
                results.toString(),
                "--result-filename",
                runId + "-" + shard + ".json"));
        return args;
    }
}
