package io.tokenpulse.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./tokenpulse bench --dataset-name agent-trace} against {@code ./tokenpulse simulate --profile
 * deterministic --send-log FILE} in its own process. The simulator's send log says, on the wall
 * clock, when the server had read each request and when it wrote each event; a child the client sent
 * at its parents' end plus the tool time reached the server after the server wrote its parents' last
 * event plus that time. The {@code --save-detailed} file says every request completed (it has no
 * send times: docs/guide/compare-and-report.md).
 */
class AgentTraceReplayIT {

    private static final int OUTPUT_TOKENS = 20;
    private static final long MS = 1_000_000;

    @TempDir
    Path home;

    @TempDir
    Path logs;

    @TempDir
    Path work;

    /**
     * Session "coder" (requests 0-5, it starts first): plan fans out to grep, read and test (100 ms
     * tool time each), patch joins the three (80 ms), answer follows patch (60 ms, the default parent:
     * the line before). Session "chat" (6-8) starts 100 ms later: three turns, 120 ms apart.
     */
    private static final List<String> TRACE = List.of(
            "{\"session_id\": \"coder\", \"request_id\": \"plan\", \"timestamp\": 1000, \"input_length\": 64,"
                    + " \"output_length\": 20, \"hash_ids\": [0]}",
            "{\"session_id\": \"chat\", \"timestamp\": 1100, \"input_length\": 64, \"output_length\": 20}",
            "{\"session_id\": \"coder\", \"request_id\": \"grep\", \"parent_ids\": [\"plan\"], \"delay\": 100,"
                    + " \"input_length\": 80, \"output_length\": 20, \"hash_ids\": [0]}",
            "{\"session_id\": \"coder\", \"request_id\": \"read\", \"parent_ids\": [\"plan\"], \"delay\": 100,"
                    + " \"input_length\": 80, \"output_length\": 20, \"hash_ids\": [0]}",
            "{\"session_id\": \"chat\", \"delay\": 120, \"input_length\": 96, \"output_length\": 20}",
            "{\"session_id\": \"coder\", \"request_id\": \"test\", \"parent_ids\": [\"plan\"], \"delay\": 100,"
                    + " \"input_length\": 80, \"output_length\": 20, \"hash_ids\": [0]}",
            "{\"session_id\": \"coder\", \"request_id\": \"patch\", \"parent_ids\": [\"grep\", \"read\", \"test\"],"
                    + " \"delay\": 80, \"input_length\": 120, \"output_length\": 20, \"hash_ids\": [0]}",
            "{\"session_id\": \"chat\", \"delay\": 120, \"input_length\": 128, \"output_length\": 20}",
            "{\"session_id\": \"coder\", \"request_id\": \"answer\", \"delay\": 60, \"input_length\": 140,"
                    + " \"output_length\": 20, \"hash_ids\": [0]}");

    /** Request index (session by start, then file order) to its parents' indices and tool time in ms. */
    private static final Map<Integer, int[]> PARENTS = Map.of(
            1,
            new int[] {0},
            2,
            new int[] {0},
            3,
            new int[] {0},
            4,
            new int[] {1, 2, 3},
            5,
            new int[] {4},
            7,
            new int[] {6},
            8,
            new int[] {7});

    private static final Map<Integer, Long> TOOL_MS =
            Map.of(1, 100L, 2, 100L, 3, 100L, 4, 80L, 5, 60L, 7, 120L, 8, 120L);

    @Test
    void childrenGoAfterTheirParentsAnswerPlusToolTimeAndFanOutOverlaps() throws Exception {
        Path trace = Files.write(work.resolve("agents.jsonl"), TRACE);
        Path sendLog = work.resolve("sends.csv");
        Path results = work.resolve("results");
        Tokenpulse tokenpulse = new Tokenpulse(home, logs);
        Tokenpulse.Result run;
        try (LocalSimulator simulator = LocalSimulator.start(
                tokenpulse,
                "--model",
                "gpt2",
                "--profile",
                "deterministic",
                "--ttft-ms",
                "20",
                "--gap-ms",
                "5",
                "--send-log",
                sendLog.toString())) {
            run = tokenpulse.run(
                    Tokenpulse.ROOT,
                    Duration.ofMinutes(3),
                    simulator.bench(
                            "--model",
                            "gpt2",
                            "--dataset-name",
                            "agent-trace",
                            "--dataset-path",
                            trace.toString(),
                            "--ignore-eos",
                            "--disable-tqdm",
                            "--metrics-port",
                            "0",
                            "--save-result",
                            "--save-detailed",
                            "--result-dir",
                            results.toString(),
                            "--result-filename",
                            "agents.json",
                            "--data-dir",
                            work.resolve("data").toString()));
            simulator.close(); // its shutdown hook writes the rest of the send log
        }

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.stdoutLines())
                .as(run.toString())
                .contains("Agent trace replay: sessions start at their trace times scaled by --trace-time-scale;"
                        + " each request is sent when its parents answered plus its tool time; --request-rate,"
                        + " --burstiness and --ramp-up-* do not apply")
                .anySatisfy(line -> assertThat(line).startsWith("Trace send lateness (ms): median "))
                .anySatisfy(line -> assertThat(line).matches("Successful requests: +9 *"));
        assertThat(run.stderr())
                .contains("agent-trace: " + trace + ": 2 sessions, 9 requests; sampled 9 requests of 2 sessions, by"
                        + " session start, each in file order (1 fan-outs, 1 joins)");

        JsonNode result =
                new ObjectMapper().readTree(results.resolve("agents.json").toFile());
        assertThat(result.get("completed").asInt()).isEqualTo(9);
        assertThat(result.get("failed").asInt()).isZero();
        assertThat(result.get("errors"))
                .hasSize(9)
                .allSatisfy(error -> assertThat(error.asText()).isEmpty());
        assertThat(result.get("output_lens"))
                .hasSize(9)
                .allSatisfy(n -> assertThat(n.asInt()).isEqualTo(OUTPUT_TOKENS));

        // Per request, on the wall clock: when the server had read it, and when it wrote its last event.
        Map<String, Long> receivedNs = new HashMap<>();
        Map<String, Long> lastEventNs = new HashMap<>();
        List<String> rows = Files.readAllLines(sendLog);
        for (String row : rows.subList(1, rows.size())) {
            String[] cells = row.split(",");
            receivedNs.merge(cells[0], Long.parseLong(cells[5]), Math::max);
            lastEventNs.merge(cells[0], Long.parseLong(cells[4]), Math::max);
        }
        long[] received = new long[9];
        long[] ended = new long[9];
        for (int i = 0; i < 9; i++) {
            String id = "benchmark-serving" + i;
            assertThat(receivedNs).as("request %d in the send log", i).containsKey(id);
            received[i] = receivedNs.get(id);
            ended[i] = lastEventNs.get(id);
        }
        run.stdoutLines().stream()
                .filter(line -> line.startsWith("Trace send lateness (ms): "))
                .forEach(System.out::println);
        for (Map.Entry<Integer, int[]> child : PARENTS.entrySet()) {
            long parentsEndNs = Long.MIN_VALUE;
            for (int parent : child.getValue()) {
                parentsEndNs = Math.max(parentsEndNs, ended[parent]);
            }
            System.out.printf(
                    "request %d reached the server %.2f ms after its parents' last event (tool time %d ms)%n",
                    child.getKey(), (received[child.getKey()] - parentsEndNs) / 1e6, TOOL_MS.get(child.getKey()));
            assertThat(received[child.getKey()] - parentsEndNs)
                    .as("request %d after its parents' last answer plus its tool time, ns", child.getKey())
                    .isGreaterThanOrEqualTo(TOOL_MS.get(child.getKey()) * MS);
        }
        // grep, read and test were in flight together: each started before any of them ended.
        long lastStart = Math.max(received[1], Math.max(received[2], received[3]));
        long firstEnd = Math.min(ended[1], Math.min(ended[2], ended[3]));
        assertThat(lastStart).as("fan-out children overlap").isLessThan(firstEnd);
        // The chat session started at its own time, not after the coder session's chain.
        assertThat(received[6])
                .as("the second session does not wait for the first")
                .isLessThan(received[5]);
    }
}
