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
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

        // The third point failed (as an interrupted sweep would leave it): --resume runs only that one.
        ((ObjectNode) points.get(2)).put("status", "failed");
        JSON.writeValue(dir.resolve("sweep.json").toFile(), sweep);

        Run resumed = sweep(flags("--resume", dir.toString()));

        assertThat(resumed.code()).as(resumed.out() + resumed.err()).isZero();
        assertThat(resumed.out())
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

        Run run = sweep(flags(
                "--output-dir",
                dir.toString(),
                "--serve-cmd",
                "echo starting up; echo still starting; sleep 60; true",
                "--port",
                "9",
                "--ready-check-timeout-sec",
                "1"));

        assertThat(run.code()).isEqualTo(1);
        assertThat(run.err())
                .contains("sweep: server 'echo starting up; echo still starting; sleep 60; true' was not ready: "
                        + "http://127.0.0.1:9/health did not answer 200 within 1 s (--ready-check-timeout-sec)")
                .contains("starting up\nstill starting");
    }

    @Test
    void aListOnAFlagThatCannotVaryIsRefusedBeforeAnythingStarts() {
        Run run = sweep("--backend", "vllm,openai", "--num-prompts", "1,2");

        assertThat(run.code()).isEqualTo(2);
        assertThat(run.err().strip())
                .isEqualTo("sweep: --backend cannot vary within a sweep (it is given a list): all points share one"
                        + " server and one pipeline; run one sweep per value");
    }
}
