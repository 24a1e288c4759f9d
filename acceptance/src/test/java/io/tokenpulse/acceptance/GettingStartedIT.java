package io.tokenpulse.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The first hour of a newcomer ({@code docs/guide/getting-started.md}, step 2), with the commands the
 * product prints pasted as printed: {@code simulate} suggests a {@code bench}; {@code bench} prints its
 * run id before the load and, after the block, the {@code replay}/{@code chart}/{@code report} commands
 * that take it, and writes {@code run_id} into its result file; {@code replay --save-result} writes a
 * file of its own beside bench's and says where. Flags the test adds to a printed command: a port the
 * system picks for the simulator ({@link LocalSimulator}) and {@code --metrics-port 0} (other tests share
 * the machine), and for bench and replay {@code --save-result}.
 */
class GettingStartedIT {
    private static final Pattern RUN_ID_FIRST = Pattern.compile("^Run id: (\\d{8}-\\d{6}-[0-9a-f]{6})$");
    private static final Pattern RESULT_SAVED = Pattern.compile("^Result saved to (\\S+)$");

    @TempDir
    Path home;

    @TempDir
    Path logs;

    @TempDir
    Path work;

    @Test
    void theCommandsTheProductPrintsRunAsPasted() throws Exception {
        Tokenpulse tokenpulse = new Tokenpulse(home, logs);
        try (LocalSimulator simulator = LocalSimulator.start(tokenpulse)) {
            String suggested = simulator
                    .awaitLine(Pattern.compile("^  (\\./tokenpulse bench .*)$"), Duration.ofSeconds(10))
                    .group(1);
            assertThat(suggested).contains("--num-prompts 100 --request-rate 10");

            Tokenpulse.Result bench = tokenpulse.run(
                    work, Duration.ofMinutes(4), pasted(suggested, "--metrics-port", "0", "--save-result"));
            assertThat(bench.exitCode()).as(bench.toString()).isZero();
            bench.assertQuietStderr();
            List<String> lines = bench.stdoutLines();
            String runId = lines.stream()
                    .map(RUN_ID_FIRST::matcher)
                    .filter(Matcher::matches)
                    .map(m -> m.group(1))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no 'Run id: ID' line before the load\n" + bench));
            assertThat(lines.indexOf("Run id: " + runId))
                    .as("the run id comes before the health check")
                    .isLessThan(indexOfStart(lines, "Checking server health at "));
            String replayLine = "  ./tokenpulse replay --run-id " + runId;
            assertThat(lines)
                    .as(bench.toString())
                    .containsSubsequence(
                            "============ Serving Benchmark Result ============",
                            "Run id: " + runId + "; to look at this run again:",
                            replayLine,
                            "  ./tokenpulse chart --run-id " + runId + " --output run.png",
                            "  ./tokenpulse report --run-id " + runId + " --output run.html");
            Path benchFile = work.resolve(savedTo(bench));
            JsonNode benchJson = new ObjectMapper().readTree(benchFile.toFile());
            assertThat(benchJson.get("run_id").asText()).isEqualTo(runId);
            assertThat(benchJson.get("completed").asInt()).isEqualTo(100);
            String benchText = Files.readString(benchFile);

            Tokenpulse.Result replay =
                    tokenpulse.run(work, Duration.ofMinutes(3), pasted(replayLine.strip(), "--save-result"));
            assertThat(replay.exitCode()).as(replay.toString()).isZero();
            replay.assertQuietStderr();
            Path replayFile = work.resolve(savedTo(replay));
            assertThat(replayFile.getFileName().toString())
                    .isEqualTo(benchFile.getFileName().toString().replace(".json", "-replay.json"));
            assertThat(Files.readString(benchFile))
                    .as("bench's file, untouched")
                    .isEqualTo(benchText);
            assertThat(new ObjectMapper()
                            .readTree(replayFile.toFile())
                            .get("run_id")
                            .asText())
                    .isEqualTo(runId);

            Tokenpulse.Result report = tokenpulse.run(
                    work,
                    Duration.ofMinutes(3),
                    pasted("./tokenpulse report --run-id " + runId + " --output run.html"));
            assertThat(report.exitCode()).as(report.toString()).isZero();
            assertThat(work.resolve("run.html")).isNotEmptyFile();
        }
    }

    /** A printed {@code ./tokenpulse ...} command as the argument list it runs with, plus {@code extra}. */
    private static List<String> pasted(String command, String... extra) {
        assertThat(command).startsWith("./tokenpulse ");
        List<String> args = new ArrayList<>(Arrays.asList(
                command.substring("./tokenpulse ".length()).strip().split(" +")));
        args.addAll(List.of(extra));
        return args;
    }

    private static int indexOfStart(List<String> lines, String prefix) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(prefix)) {
                return i;
            }
        }
        throw new AssertionError("no line starting with '" + prefix + "' in " + lines);
    }

    private static String savedTo(Tokenpulse.Result run) throws IOException {
        return Stream.of(run.stdout().split("\r?\n"))
                .map(RESULT_SAVED::matcher)
                .filter(Matcher::matches)
                .map(m -> m.group(1))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no 'Result saved to' line\n" + run));
    }
}
