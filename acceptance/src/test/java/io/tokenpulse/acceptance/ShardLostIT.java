package io.tokenpulse.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 31 item 3: one of two {@code bench} shards killed (SIGKILL) mid-run leaves the run marked
 * incomplete with the shard named, never silently short: the surviving shard scores what arrived,
 * exits 1, and its block, stderr and result file name shard 1; the file also says how many shards
 * took part and each shard's clock against the broker's.
 */
class ShardLostIT {

    private static final int REQUESTS = 40;

    private static final Pattern ALL_READY = Pattern.compile("^All 2 shards ready; starting at ");

    @TempDir
    Path work;

    @TempDir
    Path logs;

    @Test
    void aShardKilledMidRunLeavesTheRunIncompleteWithTheShardNamed() throws Exception {
        Path results = work.resolve("results");
        try (SeparatePipeline pipeline =
                        SeparatePipeline.startOneBroker(new Tokenpulse(home("platform"), logs), work.resolve("kafka"));
                Tokenpulse.Background aggregate = pipeline.aggregate(new Tokenpulse(home("aggregate"), logs))) {
            // 40 requests at 5 req/s over both shards: 8 s of load, the kill in its middle
            Tokenpulse.Background shard0 =
                    new Tokenpulse(home("bench-0"), logs).start(Tokenpulse.ROOT, bench(pipeline, 0, results));
            Tokenpulse.Background shard1 =
                    new Tokenpulse(home("bench-1"), logs).start(Tokenpulse.ROOT, bench(pipeline, 1, results));
            shard1.awaitLine(ALL_READY, Duration.ofSeconds(120));
            Thread.sleep(5_000); // the common start is 2 s after that line: 3 s into the load
            shard1.kill();

            Tokenpulse.Result survivor = shard0.finish(Duration.ofMinutes(2));
            assertThat(survivor.exitCode()).as(survivor.toString()).isEqualTo(1);
            assertThat(survivor.stdoutLines())
                    .as(survivor.toString())
                    .contains("Shards: 2 of 2 reported, 1 finished; missing: shard 1 (no RunStarted or RunFinished:"
                            + " killed mid-run, or cut off from Kafka)")
                    .anySatisfy(line -> assertThat(line).startsWith("Shard clocks minus the broker's: shard 0 "))
                    .anySatisfy(line -> assertThat(line)
                            .startsWith("Warning: incomplete result, missing RunFinished of shard 1 of 2"));
            assertThat(survivor.stderr())
                    .as(survivor.toString())
                    .contains("bench: run lost is incomplete: shard 1 of 2 did not finish (no RunFinished within 5 s"
                            + " after this shard's last response: killed mid-run, or cut off from Kafka); the result"
                            + " above was scored from what the aggregator stored");
        }
        JsonNode result = new ObjectMapper().readTree(Files.readString(results.resolve("lost-0.json")));
        assertThat(result.path("shards").asInt()).isEqualTo(2);
        assertThat(result.path("shard_count").asInt()).isEqualTo(2);
        assertThat(result.path("missing_shards").toString()).isEqualTo("[1]");
        assertThat(result.path("incomplete").asText()).startsWith("RunFinished of shard 1 of 2");
        assertThat(result.path("shard_clock_offsets").findValuesAsText("shard")).contains("0", "1");
        // what arrived is scored: shard 0's half at least, never all 40
        assertThat(result.path("completed").asInt()).isBetween(REQUESTS / 2, REQUESTS - 1);
    }

    private Path home(String name) throws Exception {
        return Files.createDirectories(work.resolve("home-" + name));
    }

    private static List<String> bench(SeparatePipeline pipeline, int shard, Path results) {
        return pipeline.bench(
                REQUESTS,
                20,
                5,
                results,
                "lost-" + shard + ".json",
                "--run-id",
                "lost",
                "--shard-index",
                Integer.toString(shard),
                "--shard-count",
                "2",
                "--summary-timeout-s",
                "5");
    }
}
