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
 * Issue 15, scale-out: one run split over two {@code bench} shards ({@code --shard-index/--shard-count})
 * and scored by two {@code aggregate} instances (each with a home of its own, as on two machines; the
 * survivor with two stream threads), one of them killed (SIGKILL) mid-run, gives one summary with the
 * same counts as one generator and one aggregator on the same schedule. The two shards start their schedules at one instant (the start
 * barrier, issue 31 item 3), and a shard whose partner never comes ends with one line.
 */
class ScaleOutIT {

    private static final int REQUESTS = 120;

    private static final Pattern ALL_READY = Pattern.compile("^All 2 shards ready; starting at (\\S+)");

    @TempDir
    Path work;

    @TempDir
    Path logs;

    private SeparatePipeline pipeline;

    @Test
    void twoShardsAndTwoAggregatorsOneKilledGiveTheCountsOfOneGeneratorAndOneAggregator() throws Exception {
        Tokenpulse tokenpulse = new Tokenpulse(home("platform"), logs);
        Path results = work.resolve("results");
        try (SeparatePipeline started = SeparatePipeline.startOneBroker(tokenpulse, work.resolve("platform"))) {
            pipeline = started;
            // the survivor runs two stream threads: the three partitions then spread over three threads of
            // two instances, and all come back to its two when the other is killed
            try (Tokenpulse.Background first = aggregate("aggregate-1", "--stream-threads", "2")) {
                assertThat(first.stdout()).contains(", 2 stream threads");
                Tokenpulse.Background singleRun = new Tokenpulse(home("bench-single"), logs)
                        .start(Tokenpulse.ROOT, bench("single", 0, 1, results));

                // The second aggregator starts while the single run goes on; it joins the group only
                // when that run's records are already flowing, which must not change them either.
                try (Tokenpulse.Background second = aggregate("aggregate-2")) {
                    assertThat(second.stdout()).contains(", 1 stream thread");
                    BenchAgainstSimulatorIT.assertCompleted(singleRun.finish(Duration.ofMinutes(4)), REQUESTS);
                    Tokenpulse.Background shard0 = new Tokenpulse(home("bench-0"), logs)
                            .start(Tokenpulse.ROOT, bench("sharded", 0, 2, results));
                    Tokenpulse.Background shard1 = new Tokenpulse(home("bench-1"), logs)
                            .start(Tokenpulse.ROOT, bench("sharded", 1, 2, results));
                    // the start barrier: both shards start their schedules at one instant
                    String start0 =
                            shard0.awaitLine(ALL_READY, Duration.ofSeconds(180)).group(1);
                    String start1 =
                            shard1.awaitLine(ALL_READY, Duration.ofSeconds(180)).group(1);
                    assertThat(start0).as("the shards' common start").isEqualTo(start1);
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
            // a shard whose partner never comes: one line after its wait, nothing sent
            List<String> lonely = bench("lonely", 0, 2, results);
            lonely.addAll(List.of("--shard-start-timeout-s", "5"));
            Tokenpulse.Result alone =
                    new Tokenpulse(home("bench-lonely"), logs).run(Tokenpulse.ROOT, Duration.ofMinutes(3), lonely);
            assertThat(alone.exitCode()).as(alone.toString()).isEqualTo(1);
            assertThat(alone.stderr().strip())
                    .as(alone.toString())
                    .isEqualTo("bench: shard 1 of run lonely did not show up within 5 s: start every shard with"
                            + " --run-id lonely --shard-count 2 and its own --shard-index, or raise"
                            + " --shard-start-timeout-s");
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
            // how many shards took part, and each one's clock against the broker's (docs/cluster.md)
            assertThat(split.path("shards").asInt()).as(shard).isEqualTo(2);
            assertThat(split.path("shard_count").asInt()).as(shard).isEqualTo(2);
            assertThat(split.has("missing_shards")).as(shard).isFalse();
            assertThat(split.path("shard_clock_offsets").findValuesAsText("shard"))
                    .as(shard)
                    .containsExactly("0", "1");
        }
        assertThat(one.has("shards")).as("a run of one shard keeps vLLM's keys").isFalse();
    }

    private Path home(String name) throws Exception {
        return java.nio.file.Files.createDirectories(work.resolve("home-" + name));
    }

    private Tokenpulse.Background aggregate(String home, String... more) throws Exception {
        // The broker's shortest session (group.min.session.timeout.ms): the survivor takes the killed
        // aggregator's partitions after 6 s instead of the default 45 s.
        List<String> args = new java.util.ArrayList<>(List.of(
                "--kafka-property", "session.timeout.ms=6000", "--kafka-property", "heartbeat.interval.ms=1000"));
        args.addAll(List.of(more));
        return pipeline.aggregate(new Tokenpulse(home(home), logs), args.toArray(String[]::new));
    }

    private List<String> bench(String runId, int shard, int shards, Path results) {
        return pipeline.bench(
                REQUESTS,
                30,
                10,
                results,
                runId + "-" + shard + ".json",
                "--random-range-ratio",
                "0.5",
                "--run-id",
                runId,
                "--shard-index",
                Integer.toString(shard),
                "--shard-count",
                Integer.toString(shards));
    }
}
