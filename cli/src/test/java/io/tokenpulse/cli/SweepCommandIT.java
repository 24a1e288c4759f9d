package io.tokenpulse.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code tokenpulse sweep} through the embedded broker: a 2 x 2 sweep of small simulated points, then --resume. */
class SweepCommandIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dataDir;

    @TempDir
    Path work;

    private record Run(int code, String out, String err) {}

    private static Run sweep(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream originalOut = System.out;
        PrintStream originalErr = System.err;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            List<String> command = new ArrayList<>(List.of("sweep"));
            command.addAll(List.of(args));
            int code = TokenPulse.newCommandLine().execute(command.toArray(String[]::new));
            return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(originalOut);
            System.setErr(originalErr);
        }
    }

    private String[] flags(String... more) {
        List<String> flags = new ArrayList<>(List.of(
                "--simulate",
                "--simulate-profile",
                "deterministic",
                "--simulate-speedup",
                "20",
                "--dataset-name",
                "random",
                "--num-prompts",
                "2,3",
                "--random-input-len",
                "16..32x2",
                "--random-output-len",
                "4",
                "--ignore-eos",
                "--disable-tqdm",
                "--data-dir",
                dataDir.toString(),
                "--metrics-port",
                "0"));
        flags.addAll(List.of(more));
        return flags.toArray(String[]::new);
    }

    @Test
    void runsEachPointOnOnePipelineWritesTheFolderAndResumesOnlyWhatIsNotDone() throws Exception {
        Path dir = work.resolve("sweep");

        Run first = sweep(flags("--output-dir", dir.toString()));

        assertThat(first.code()).as(first.out() + first.err()).isZero();
        assertThat(first.out())
                .contains("[1/4] num_prompts=2,random_input_len=16: done in ")
                .contains("[4/4] num_prompts=3,random_input_len=32: done in ")
                .contains("| num_prompts | random_input_len | Successful Requests | Duration (s) |");
        assertThat(first.out().split("============ Serving Benchmark Result ============", -1))
                .hasSize(5);
        assertThat(first.out().split("Namespace\\(backend='vllm'", -1))
                .as("a Namespace line per point, as bench prints")
                .hasSize(5);
        JsonNode sweep = JSON.readTree(dir.resolve("sweep.json").toFile());
        assertThat(sweep.get("sweep_id").asText()).startsWith("sweep-");
        assertThat(sweep.get("swept").toString()).isEqualTo("[\"num_prompts\",\"random_input_len\"]");
        JsonNode points = sweep.get("points");
        assertThat(points).hasSize(4);
        List<String> runIds = new ArrayList<>();
        for (JsonNode point : points) {
            assertThat(point.get("status").asText()).isEqualTo("done");
            runIds.add(point.get("run_id").asText());
            JsonNode result =
                    JSON.readTree(dir.resolve(point.get("result").asText()).toFile());
            int prompts = point.get("params").get("num_prompts").asInt();
            int inputLen = point.get("params").get("random_input_len").asInt();
            assertThat(result.get("completed").asInt()).isEqualTo(prompts);
            assertThat(result.get("total_input_tokens").asInt()).isEqualTo(prompts * inputLen);
            assertThat(result.get("ttfts")).as("--save-detailed lists").hasSize(prompts);
        }
        assertThat(runIds).doesNotHaveDuplicates();
        assertThat(Files.readAllLines(dir.resolve("summary.csv"))).hasSize(5);
        assertThat(Files.readString(dir.resolve("summary.md"))).contains("| 3 | 32 | 3 | ");
        assertThat(dir.resolve("sweep-chart.png")).isNotEmptyFile();
        assertThat(dir.resolve("sweep-pareto.png")).isNotEmptyFile();

        // The third point failed (as an interrupted sweep would leave it): --resume runs only that one.
        ((ObjectNode) points.get(2)).put("status", "failed");
        JSON.writeValue(dir.resolve("sweep.json").toFile(), sweep);

        Run otherFlags = sweep("--resume", dir.toString(), "--num-prompts", "9");
        assertThat(otherFlags.code()).isEqualTo(2);
        assertThat(otherFlags.err().strip())
                .startsWith("sweep: --resume " + dir + ": the sweep there ran with other flags (--simulate ")
                .endsWith("); give --resume " + dir + " alone, or the same flags");

        // --resume DIR alone: the flags come from sweep.json
        Run resumed = sweep("--resume", dir.toString());

        assertThat(resumed.code()).as(resumed.out() + resumed.err()).isZero();
        assertThat(resumed.out())
                .contains("Resuming " + dir + " with its flags: --simulate --simulate-profile deterministic")
                .contains("[1/4] num_prompts=2,random_input_len=16: done earlier, skipped")
                .contains("[3/4] num_prompts=3,random_input_len=16: done in ");
        assertThat(resumed.out().split("============ Serving Benchmark Result ============", -1))
                .hasSize(2);
        JsonNode after = JSON.readTree(dir.resolve("sweep.json").toFile()).get("points");
        assertThat(after.get(0).get("run_id").asText()).isEqualTo(runIds.get(0));
        assertThat(after.get(2).get("run_id").asText()).isNotEqualTo(runIds.get(2));
        assertThat(after.get(2).get("status").asText()).isEqualTo("done");
    }

    @Test
    void aServerThatNeverGetsReadyStopsTheSweepWithItsLastLogLines() {
        Path dir = work.resolve("never");

        Run run = sweep(Arrays.stream(flags(
                        "--output-dir",
                        dir.toString(),
                        "--serve-cmd",
                        "echo starting up; echo still starting; sleep 60; true",
                        "--port",
                        "9",
                        "--ready-check-timeout-sec",
                        "1"))
                .filter(flag -> !flag.equals("--simulate")) // the server is --serve-cmd's
                .toArray(String[]::new));

        assertThat(run.code()).isEqualTo(1);
        assertThat(run.err())
                .contains("sweep: server 'echo starting up; echo still starting; sleep 60; true' was not ready: "
                        + "http://127.0.0.1:9/health did not answer 200 within 1 s (--ready-check-timeout-sec)")
                .contains("starting up\nstill starting");
    }

    @Test
    void searchFindsTheHighestConcurrencyThatMetTheSloAndStopsAPointPastSaturationEarly() throws Exception {
        Path dir = work.resolve("search");
        // The default profile prefills 1000-token prompts one 512-token step after another: alone a request's
        // TTFT is two steps (~60 ms at speed-up 20), with 32 in flight it waits for the prefills ahead (~1-2 s).
        Run run = sweep(
                "--simulate",
                "--simulate-speedup",
                "20",
                "--dataset-name",
                "random",
                "--num-prompts",
                "64",
                "--random-input-len",
                "1000",
                "--random-output-len",
                "4",
                "--ignore-eos",
                "--disable-tqdm",
                "--data-dir",
                dataDir.toString(),
                "--metrics-port",
                "0",
                "--drain-timeout-s",
                "5",
                "--output-dir",
                dir.toString(),
                "--search",
                "concurrency",
                "--slo",
                "ttft:500,failures:0.5",
                "--search-factor",
                "32",
                "--search-max-points",
                "2",
                "--search-stop-margin",
                "1",
                "--search-stop-windows",
                "1");

        assertThat(run.code()).as(run.out() + run.err()).isZero();
        assertThat(run.out())
                .contains("[1/2] max_concurrency=1: done in ")
                .contains("[2/2] max_concurrency=32: stopped_early in ")
                .contains("Stopping early: the live P99 TTFT of first tokens per 1 s window exceeded 500 ms once")
                .contains("Search over max_concurrency (P99 TTFT <= 500 ms, failures <= 0.5, 2 points): highest load"
                        + " that met the SLO: max_concurrency=1 (the lowest that missed it: 32)");
        JsonNode sweep = JSON.readTree(dir.resolve("sweep.json").toFile());
        assertThat(sweep.get("swept").toString()).isEqualTo("[\"max_concurrency\"]");
        assertThat(sweep.get("search").get("highest_met").asText()).isEqualTo("1");
        assertThat(sweep.get("search").get("lowest_missed").asText()).isEqualTo("32");
        JsonNode met = sweep.get("points").get(0);
        assertThat(met.get("status").asText()).isEqualTo("done");
        assertThat(met.get("slo_met").asBoolean()).isTrue();
        JsonNode stopped = sweep.get("points").get(1);
        assertThat(stopped.get("status").asText()).isEqualTo("stopped_early");
        assertThat(stopped.get("reason").asText()).startsWith("the live P99 TTFT of first tokens per 1 s window");
        assertThat(stopped.get("slo_met").asBoolean()).isFalse();
        JsonNode partial =
                JSON.readTree(dir.resolve(stopped.get("result").asText()).toFile());
        // The stop reaches the run as Ctrl-C does; on a quiet machine all 64 may have been sent by then.
        assertThat(partial.get("interrupted").asBoolean())
                .as(partial.toString())
                .isTrue();
        assertThat(partial.get("completed").asInt()).isBetween(1, 64);
        assertThat(Files.readString(dir.resolve("summary.md")))
                .contains("| max_concurrency | Successful Requests |")
                .contains("- max_concurrency=32: missed the SLO: stopped early (the live P99 TTFT");
    }

    @Test
    void aFolderOfAnOlderVersionNeedsItsFlagsGivenAgain() throws Exception {
        Path old = Files.createDirectories(work.resolve("old"));
        Files.writeString(old.resolve("sweep.json"), "{\"sweep_id\": \"sweep-1\", \"swept\": [], \"points\": []}");

        Run run = sweep("--resume", old.toString());

        assertThat(run.code()).isEqualTo(2);
        assertThat(run.err().strip())
                .isEqualTo("sweep: --resume " + old + ": its sweep.json was written by an older version that did not"
                        + " keep the sweep's flags; give them again beside --resume");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "a list on a fixed flag | --backend vllm,openai --num-prompts 1,2"
                        + " | sweep: --backend cannot vary within a sweep (it is given a list): all points share one"
                        + " server and one pipeline; run one sweep per value",
                "a search without --slo | --search rate | sweep: --search needs --slo, e.g. --slo"
                        + " ttft:2000,itl:100,failures:0.01",
                "an unknown SLO key     | --search rate --slo tpot:5 | sweep: --slo: unknown key 'tpot'; use ttft and"
                        + " itl (P99, ms) and failures (a fraction), e.g. ttft:2000,itl:100,failures:0.01",
                "a list on the searched flag | --search rate --slo ttft:1 --request-rate 1,2 | sweep: --search rate"
                        + " sets --request-rate itself, from --search-start up: give --request-rate no list",
                "an SLO the result lacks | --search concurrency --slo itl:5 --percentile-metrics ttft | sweep: --slo"
                        + " reads the P99 of itl: keep itl in --percentile-metrics and 99 in --metric-percentiles",
                "--serve-cmd with --simulate | --serve-cmd true --simulate | sweep: --serve-cmd starts the server the"
                        + " points benchmark, --simulate the built-in one in its place: give one of them",
            })
    void badInputIsOneLineBeforeAnythingStarts(String why, String args, String line) {
        Run run = sweep(args.split(" "));

        assertThat(run.code()).isEqualTo(2);
        assertThat(run.err().strip()).isEqualTo(line);
    }
}
