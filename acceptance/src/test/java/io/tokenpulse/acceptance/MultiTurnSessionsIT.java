package io.tokenpulse.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 33, item 1 and the simulator's share of item 8: {@code ./tokenpulse simulate} (default profile:
 * continuous batching with a prefix cache, Qwen3's chat template) in its own process, then
 * {@code bench --dataset-name multi-turn} against it with a think time and the session header. Every
 * turn completes; each later turn of a session is sent no earlier than its previous turn's end plus
 * the think time (from {@code --save-detailed}'s {@code session_turns}); the result file has TTFT by
 * turn with the inputs growing turn by turn; the console has the per-turn section; the simulator's
 * prefix cache served the sessions' shared prefixes, and its usage reports {@code cached_tokens}
 * growing as a conversation grows (OpenAI's {@code usage.prompt_tokens_details.cached_tokens}, chat
 * completion object, platform.openai.com/docs/api-reference/chat/object, read 2026-11-27); it counted
 * every turn's {@code X-Session-Affinity} header.
 */
class MultiTurnSessionsIT {
    private static final String QWEN = "Qwen/Qwen3-0.6B";
    private static final int SESSIONS = 3;
    private static final int TURNS = 3;
    private static final double THINK_S = 0.3;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path home;

    @TempDir
    Path logs;

    @TempDir
    Path work;

    @Test
    void sessionsSendEachTurnAfterTheAnswerPlusThinkTimeAndReportTtftByTurn() throws Exception {
        Tokenpulse tokenpulse = new Tokenpulse(home, logs);
        try (LocalSimulator simulator = LocalSimulator.start(
                tokenpulse,
                "--model",
                QWEN,
                "--tokenizer",
                Tokenpulse.QWEN3.toString(),
                "--profile",
                "default",
                "--enable-prompt-tokens-details")) {
            String baseUrl = simulator.baseUrl();

            Tokenpulse.Result bench = tokenpulse.run(
                    Tokenpulse.ROOT,
                    Duration.ofMinutes(4),
                    withSessions(
                            List.of(
                                    "bench",
                                    "--base-url",
                                    baseUrl,
                                    "--backend",
                                    "openai-chat",
                                    "--endpoint",
                                    "/v1/chat/completions"),
                            SESSIONS,
                            TURNS,
                            64,
                            16,
                            48,
                            "--think-time-ms",
                            Long.toString(Math.round(THINK_S * 1000)),
                            "--session-header",
                            "--ignore-eos",
                            "--save-result",
                            "--save-detailed",
                            "--result-dir",
                            work.toString(),
                            "--result-filename",
                            "sessions.json",
                            "--metrics-port",
                            "0",
                            "--disable-tqdm",
                            "--data-dir",
                            work.resolve("data").toString()));
            assertThat(bench.exitCode()).as(bench.toString()).isZero();
            assertThat(bench.stdoutLines())
                    .as(bench.toString())
                    .anySatisfy(line -> assertThat(line.strip())
                            .isEqualTo("Successful requests:                     " + SESSIONS * TURNS))
                    .anySatisfy(line -> assertThat(line).contains(" Per Turn "))
                    .anySatisfy(line -> assertThat(line).contains(" Turn 2 "));

            JsonNode result = JSON.readTree(work.resolve("sessions.json").toFile());
            assertThat(result.get("completed").asInt()).isEqualTo(SESSIONS * TURNS);
            assertThat(result.get("failed").asInt()).isZero();

            // TTFT by turn: every turn of every session, inputs growing with the history
            JsonNode byTurn = result.get("ttft_by_turn");
            assertThat(byTurn).hasSize(TURNS);
            double previousInput = 0;
            for (int turn = 0; turn < TURNS; turn++) {
                JsonNode entry = byTurn.get(turn);
                assertThat(entry.get("turn").asInt()).isEqualTo(turn);
                assertThat(entry.get("completed").asInt()).isEqualTo(SESSIONS);
                assertThat(entry.get("mean_ttft_ms").asDouble()).isPositive();
                assertThat(entry.get("p99_ttft_ms").asDouble())
                        .isGreaterThanOrEqualTo(entry.get("median_ttft_ms").asDouble());
                double input = entry.get("mean_input_tokens").asDouble();
                // each turn adds the answer (16) and a new user message (64) to what the last one sent
                assertThat(input).isGreaterThan(previousInput + 64 + 16);
                previousInput = input;
            }

            // turn k+1 goes after turn k's end plus the think time, not much later
            Map<String, List<JsonNode>> sessions = new TreeMap<>();
            for (JsonNode turn : result.get("session_turns")) {
                sessions.computeIfAbsent(turn.get("session_id").asText(), id -> new ArrayList<>())
                        .add(turn);
            }
            assertThat(sessions).hasSize(SESSIONS);
            for (List<JsonNode> turns : sessions.values()) {
                turns.sort((a, b) ->
                        Integer.compare(a.get("turn").asInt(), b.get("turn").asInt()));
                assertThat(turns).extracting(t -> t.get("turn").asInt()).containsExactly(0, 1, 2);
                for (int k = 1; k < TURNS; k++) {
                    double gapS = turns.get(k).get("sent_epoch_s").asDouble()
                            - turns.get(k - 1).get("finished_epoch_s").asDouble();
                    assertThat(gapS).as("think time before turn " + k).isBetween(THINK_S - 0.001, THINK_S + 1.0);
                }
            }

            // the simulator's prefix cache served the sessions (shared system prompt, growing histories)
            HttpClient http = HttpClient.newHttpClient();
            String metrics = http.send(
                            HttpRequest.newBuilder(URI.create(baseUrl + "/metrics"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
            Matcher hits = Pattern.compile("(?m)^vllm:prefix_cache_hits_total\\S* (\\S+)$")
                    .matcher(metrics);
            assertThat(hits.find()).as(metrics).isTrue();
            assertThat(Double.parseDouble(hits.group(1))).isGreaterThan(0);
            // every turn carried the session header (the initial test request, sent before the run, does not)
            Matcher sessionRequests = Pattern.compile("(?m)^tokenpulse:session_affinity_requests_total\\S* (\\S+)$")
                    .matcher(metrics);
            assertThat(sessionRequests.find()).as(metrics).isTrue();
            assertThat(Double.parseDouble(sessionRequests.group(1))).isEqualTo(SESSIONS * TURNS);

            // and its usage says how much of a growing conversation was cached
            String question = "Tell me about the history of the printing press in Europe. ".repeat(8);
            int first = cachedTokens(http, baseUrl, "[{\"role\": \"user\", \"content\": \"" + question + "\"}]");
            int second = cachedTokens(
                    http,
                    baseUrl,
                    "[{\"role\": \"user\", \"content\": \"" + question + "\"},"
                            + " {\"role\": \"assistant\", \"content\": \"It began with Gutenberg.\"},"
                            + " {\"role\": \"user\", \"content\": \"And then?\"}]");
            assertThat(second).isGreaterThan(first).isGreaterThanOrEqualTo(64);
        }
    }

    /**
     * {@code command}, then {@code --model} and {@code --tokenizer} (Qwen3) and a synthetic
     * {@code multi-turn} dataset of {@code sessions} sessions of {@code turns} turns of these lengths,
     * then {@code more}.
     */
    static List<String> withSessions(
            List<String> command,
            int sessions,
            int turns,
            int inputLen,
            int outputLen,
            int systemPromptLen,
            String... more) {
        List<String> args = new ArrayList<>(command);
        args.addAll(List.of(
                "--model",
                QWEN,
                "--tokenizer",
                Tokenpulse.QWEN3.toString(),
                "--dataset-name",
                "multi-turn",
                "--num-prompts",
                Integer.toString(sessions),
                "--multi-turn-num-turns",
                Integer.toString(turns),
                "--multi-turn-input-len",
                Integer.toString(inputLen),
                "--multi-turn-output-len",
                Integer.toString(outputLen),
                "--multi-turn-system-prompt-len",
                Integer.toString(systemPromptLen)));
        args.addAll(List.of(more));
        return args;
    }

    private static int cachedTokens(HttpClient http, String baseUrl, String messages) throws Exception {
        String body = "{\"model\": \"" + QWEN + "\", \"max_tokens\": 2, \"messages\": " + messages + "}";
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create(baseUrl + "/v1/chat/completions"))
                        .header("Content-Type", "application/json")
                        .header("X-Session-Affinity", "acceptance-session")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JSON.readTree(response.body())
                .get("usage")
                .get("prompt_tokens_details")
                .get("cached_tokens")
                .asInt();
    }
}
