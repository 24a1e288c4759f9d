package io.tokenpulse.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./tokenpulse bench} stopped by a signal, and bounded by its timeouts: Ctrl-C (SIGINT) lets
 * the requests in flight finish within {@code --drain-timeout-s}, then prints the block and writes the
 * result file of what completed, marked interrupted, exit 130; SIGTERM with {@code --drain-timeout-s 0}
 * cancels them, exit 143; a second Ctrl-C stops at once; the next bench on the same data dir starts as
 * fast as the first; streams stalled past {@code --stream-idle-timeout-s} are counted failures. The
 * runs share one data directory, in order, as a user's consecutive runs do.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class InterruptedBenchIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern MAIN_RUN = Pattern.compile("Initial test run completed");
    private static final Pattern READY = Pattern.compile("^Server is ready!");

    @TempDir
    static Path home;

    @TempDir
    static Path logs;

    @TempDir
    static Path work;

    static Tokenpulse tokenpulse;
    /** The quickest launch to "Server is ready!" of the benches before the last, in s. */
    static double quickestStartS = Double.MAX_VALUE;

    @BeforeAll
    static void setUp() {
        tokenpulse = new Tokenpulse(home, logs);
    }

    /** 100 requests of 100 tokens 20 ms apart (2 s each) at 5 requests/s: about 20 s of sending. */
    private static Tokenpulse.Background bench(String name, String... extra) {
        List<String> args = new ArrayList<>(List.of(
                "bench",
                "--simulate",
                "--simulate-profile",
                "deterministic",
                "--dataset-name",
                "random",
                "--num-prompts",
                "100",
                "--request-rate",
                "5",
                "--random-input-len",
                "16",
                "--random-output-len",
                "100",
                "--ignore-eos",
                "--disable-tqdm",
                "--metrics-port",
                "0",
                "--data-dir",
                work.resolve("data").toString(),
                "--save-result",
                "--result-dir",
                work.toString(),
                "--result-filename",
                name + ".json"));
        args.addAll(List.of(extra));
        return tokenpulse.start(args.toArray(String[]::new));
    }

    /** Waits for the schedule to start, noting how long the start took. */
    private static void awaitMainRun(Tokenpulse.Background bench) throws InterruptedException {
        bench.awaitLine(READY, Duration.ofMinutes(3));
        quickestStartS = Math.min(quickestStartS, bench.secondsSinceStart());
        bench.awaitLine(MAIN_RUN, Duration.ofMinutes(2));
    }

    private static JsonNode result(String name) throws Exception {
        return JSON.readTree(Files.readString(work.resolve(name + ".json")));
    }

    @Test
    @Order(1)
    void ctrlCLetsTheRequestsInFlightFinishThenReportsWhatCompleted() throws Exception {
        Tokenpulse.Background bench = bench("sigint");
        awaitMainRun(bench);
        Thread.sleep(2000);
        // --pipeline-nice's default: the pipeline 10 steps below the timing threads and the server
        Map<String, List<Integer>> nices = bench.threadNices();
        int timing = nices.get("java").get(0); // main
        assertThat(nices).as("threads by nice value").containsKeys("tp-kafka-sender", "tp-pipeline-sta");
        nices.forEach((thread, values) -> {
            if (thread.startsWith("data-plane-kafk") // the broker's request handlers
                    || thread.startsWith("tokenpulse-aggr") // the aggregator's stream thread
                    || thread.equals("tp-kafka-sender")) {
                assertThat(values).as(thread).containsOnly(Math.min(19, timing + 10));
            }
            if (thread.startsWith("tp-http-") || thread.startsWith("tp-sim-")) {
                assertThat(values).as(thread).containsOnly(timing);
            }
        });
        assertThat(nices.keySet())
                .anyMatch(t -> t.startsWith("data-plane-kafk"))
                .anyMatch(t -> t.startsWith("tp-http-"));
        bench.signal("INT");
        Tokenpulse.Result run = bench.finish(Duration.ofMinutes(3));

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(130);
        assertThat(run.stderr()).contains("Interrupted (SIGINT): no new requests");
        assertThat(run.stdout())
                .contains("============ Serving Benchmark Result ============")
                .containsPattern("Warning: the run was interrupted; the figures above cover the \\d+ requests")
                .contains("Result saved to ");
        JsonNode json = result("sigint");
        assertThat(json.get("interrupted").asBoolean()).isTrue();
        // Every request sent before the signal finished within the 30 s drain: none failed.
        assertThat(json.get("failed").asInt()).isZero();
        assertThat(json.get("completed").asInt())
                .isBetween(1, 99)
                .isEqualTo(json.get("num_prompts").asInt());
    }

    @Test
    @Order(2)
    void sigtermWithNoDrainTimeCancelsTheRequestsInFlightAsCountedFailures() throws Exception {
        Tokenpulse.Background bench = bench("sigterm", "--drain-timeout-s", "0");
        awaitMainRun(bench);
        Thread.sleep(2000);
        bench.signal("TERM");
        Tokenpulse.Result run = bench.finish(Duration.ofMinutes(3));

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(143);
        assertThat(run.stdout())
                .contains("Serving Benchmark Result")
                .contains("the HTTP client was closed while the request was in flight");
        JsonNode json = result("sigterm");
        assertThat(json.get("interrupted").asBoolean()).isTrue();
        assertThat(json.get("failed").asInt()).isPositive();
        assertThat(json.get("completed").asInt() + json.get("failed").asInt())
                .isEqualTo(json.get("num_prompts").asInt());
    }

    @Test
    @Order(3)
    void aSecondCtrlCStopsAtOnce() throws Exception {
        Tokenpulse.Background bench = bench("twice", "--drain-timeout-s", "600");
        awaitMainRun(bench);
        Thread.sleep(3000);
        bench.signal("INT");
        Thread.sleep(500);
        bench.signal("INT");
        Tokenpulse.Result run = bench.finish(Duration.ofSeconds(30));

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(130);
        assertThat(run.stderr()).contains("Stopped at once (SIGINT again): no result.");
        assertThat(run.stdout()).doesNotContain("Serving Benchmark Result");
        assertThat(work.resolve("twice.json")).doesNotExist();
    }

    @Test
    @Order(4)
    void theNextBenchOnTheDataDirStartsAtOnceAndStalledStreamsAreCountedFailures() throws Exception {
        // Seed 2 stalls requests 21, 25, 45 and 48 of 1..60 for 10 minutes; the idle limit fails them in 2 s.
        Tokenpulse.Background bench = bench(
                "stalls",
                "--num-prompts",
                "60",
                "--request-rate",
                "inf",
                "--random-output-len",
                "8",
                "--seed",
                "2",
                "--simulate-fault",
                "stall=600000:0.05",
                "--stream-idle-timeout-s",
                "2",
                "--request-timeout-s",
                "120");
        bench.awaitLine(READY, Duration.ofMinutes(3));
        double startS = bench.secondsSinceStart();
        Tokenpulse.Result run = bench.finish(Duration.ofMinutes(3));

        // A halted run leaves no lock and no Kafka Streams member behind that the next run waits for
        // (that wait is the 45 s session timeout). Scaled, as the starts slow down together on a busy machine.
        assertThat(startS).isLessThan(quickestStartS * 1.5 + 10);
        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdout())
                .containsPattern("Failed requests: +4 ")
                .contains("  4 x no bytes from HOST:PORT for N s (stream idle timeout) after N body bytes");
        JsonNode json = result("stalls");
        assertThat(json.get("completed").asInt()).isEqualTo(56);
        assertThat(json.has("interrupted")).isFalse();
    }
}
