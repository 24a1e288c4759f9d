package io.tokenpulse.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./tokenpulse sweep} of multi-turn sessions: {@code --dataset-name multi-turn} with a think
 * time and the session header over {@code --max-concurrency 1,2} against {@code ./tokenpulse simulate}
 * in its own process. Each point runs every turn of every session and its result file counts them
 * by turn ({@code ttft_by_turn}) and, with {@code --save-detailed}, lists them ({@code session_turns}).
 */
class SweepSessionsIT {
    private static final int SESSIONS = 2;
    private static final int TURNS = 3;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path home;

    @TempDir
    Path logs;

    @TempDir
    Path work;

    @Test
    void eachPointPlaysEverySessionTurnByTurn() throws Exception {
        Tokenpulse tokenpulse = new Tokenpulse(home, logs);
        try (LocalSimulator simulator = LocalSimulator.start(
                tokenpulse,
                "--model",
                BenchAgainstSimulatorIT.QWEN,
                "--tokenizer",
                Tokenpulse.QWEN3.toString(),
                "--profile",
                "deterministic",
                "--ttft-ms",
                "20",
                "--gap-ms",
                "5")) {
            Path dir = work.resolve("sweep");
            Tokenpulse.Result sweep = tokenpulse.run(
                    Tokenpulse.ROOT,
                    Duration.ofMinutes(4),
                    MultiTurnSessionsIT.withSessions(
                            List.of(
                                    "sweep",
                                    "--base-url",
                                    simulator.baseUrl(),
                                    "--backend",
                                    "openai-chat",
                                    "--endpoint",
                                    "/v1/chat/completions"),
                            SESSIONS,
                            TURNS,
                            32,
                            8,
                            0,
                            "--think-time-ms",
                            "50",
                            "--session-header",
                            "--max-concurrency",
                            "1,2",
                            "--save-detailed",
                            "--disable-tqdm",
                            "--metrics-port",
                            "0",
                            "--data-dir",
                            work.resolve("data").toString(),
                            "--output-dir",
                            dir.toString()));

            assertThat(sweep.exitCode()).as(sweep.toString()).isZero();
            assertThat(sweep.stdoutLines())
                    .as(sweep.toString())
                    .filteredOn(line -> line.startsWith("["))
                    .hasSize(2)
                    .allSatisfy(line -> assertThat(line).contains(": done in "));
            JsonNode points = JSON.readTree(dir.resolve("sweep.json").toFile()).get("points");
            assertThat(points).hasSize(2);
            for (JsonNode point : points) {
                JsonNode result =
                        JSON.readTree(dir.resolve(point.get("result").asText()).toFile());
                assertThat(result.get("completed").asInt()).as(point.toString()).isEqualTo(SESSIONS * TURNS);
                assertThat(result.get("failed").asInt()).isZero();
                JsonNode byTurn = result.get("ttft_by_turn");
                assertThat(byTurn).as(point.toString()).hasSize(TURNS);
                for (int turn = 0; turn < TURNS; turn++) {
                    assertThat(byTurn.get(turn).get("turn").asInt()).isEqualTo(turn);
                    assertThat(byTurn.get(turn).get("completed").asInt()).isEqualTo(SESSIONS);
                }
                JsonNode turns = result.get("session_turns");
                assertThat(turns).as(point.toString()).hasSize(SESSIONS * TURNS);
                assertThat(turns.findValuesAsText("session_id"))
                        .as(point.toString())
                        .hasSize(SESSIONS * TURNS);
                assertThat(turns.findValues("session_id").stream()
                                .map(JsonNode::asText)
                                .distinct())
                        .hasSize(SESSIONS);
            }
            assertThat(points.get(0).get("params").get("max_concurrency").asInt())
                    .isEqualTo(1);
            assertThat(points.get(1).get("params").get("max_concurrency").asInt())
                    .isEqualTo(2);
        }
    }
}
