package io.tokenpulse.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 33, item 1 on the newer APIs: {@code bench --dataset-name multi-turn} with
 * {@code --backend openai-responses} and {@code anthropic-messages} against
 * {@code ./tokenpulse simulate} (default profile: a prefix cache, Qwen3's chat template,
 * {@code --enable-prompt-tokens-details}) in its own process. Every turn of every session completes,
 * each sending the conversation so far (the inputs grow turn by turn); the client reads the prefix
 * cache's hits from each API's own usage field (the Responses API's
 * {@code usage.input_tokens_details.cached_tokens}, platform.openai.com/docs/api-reference/responses/object;
 * the Messages API's {@code usage.cache_read_input_tokens}, docs.anthropic.com/en/api/messages; both
 * read 2026-11-28) into the run's hit rate; the live {@code /metrics} has TTFT by turn
 * ({@code tokenpulse_request_ttft_by_turn_seconds{turn}}); and the simulator's answer to a growing
 * conversation in each API's format reports more cached tokens than to its first turn.
 */
class SessionsOnMessageApisIT {
    private static final String QWEN = BenchAgainstSimulatorIT.QWEN;
    private static final int SESSIONS = 2;
    private static final int TURNS = 3;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern TTFT_BY_TURN =
            Pattern.compile("(?m)^tokenpulse_request_ttft_by_turn_seconds_count\\{[^}]*turn=\"(\\d+)\"[^}]*} (\\S+)$");

    @TempDir
    static Path home;

    @TempDir
    static Path logs;

    @TempDir
    static Path work;

    static Tokenpulse tokenpulse;
    static LocalSimulator simulator;

    @BeforeAll
    static void startSimulator() throws Exception {
        tokenpulse = new Tokenpulse(home, logs);
        simulator = LocalSimulator.start(
                tokenpulse,
                "--model",
                QWEN,
                "--tokenizer",
                Tokenpulse.QWEN3.toString(),
                "--profile",
                "default",
                "--enable-prompt-tokens-details");
    }

    @AfterAll
    static void stopSimulator() {
        if (simulator != null) {
            simulator.close();
        }
    }

    @ParameterizedTest
    @CsvSource({"openai-responses", "anthropic-messages"})
    void sessionsSendTheGrowingConversationAndReportCachedTokensAndTtftByTurn(String backend) throws Exception {
        int metricsPort = FreePorts.one();
        Tokenpulse.Background bench = tokenpulse.start(
                Tokenpulse.ROOT,
                MultiTurnSessionsIT.withSessions(
                        simulator.bench("--backend", backend),
                        SESSIONS,
                        TURNS,
                        64,
                        16,
                        48,
                        // long enough that turn 1's TTFT is on /metrics well before the run ends
                        "--think-time-ms",
                        "1500",
                        "--save-result",
                        "--result-dir",
                        work.toString(),
                        "--result-filename",
                        backend + ".json",
                        "--metrics-port",
                        Integer.toString(metricsPort),
                        "--disable-tqdm",
                        "--data-dir",
                        work.resolve("data-" + backend).toString()));
        HttpClient http = HttpClient.newHttpClient();
        String seen = "";
        while (bench.isAlive()
                && bench.secondsSinceStart() < 240
                && !(seen.contains("turn=\"0\"") && seen.contains("turn=\"1\""))) {
            seen = turnSeries(http, metricsPort).orElse(seen);
            Thread.sleep(100);
        }
        Tokenpulse.Result result = bench.finish(Duration.ofMinutes(4));
        assertThat(result.exitCode()).as(result.toString()).isZero();
        // the live meter: the first and second turns' TTFT under a turn tag of their own
        assertThat(seen)
                .as("tokenpulse_request_ttft_by_turn_seconds on /metrics during the run")
                .contains("turn=\"0\"")
                .contains("turn=\"1\"");

        JsonNode run = JSON.readTree(work.resolve(backend + ".json").toFile());
        assertThat(run.get("completed").asInt()).isEqualTo(SESSIONS * TURNS);
        assertThat(run.get("failed").asInt()).isZero();
        JsonNode byTurn = run.get("ttft_by_turn");
        assertThat(byTurn).hasSize(TURNS);
        double previousInput = 0;
        for (int turn = 0; turn < TURNS; turn++) {
            JsonNode entry = byTurn.get(turn);
            assertThat(entry.get("completed").asInt()).isEqualTo(SESSIONS);
            double input = entry.get("mean_input_tokens").asDouble();
            // each turn sends the history and a new user message of 64 tokens
            assertThat(input).as("turn " + turn).isGreaterThan(previousInput + 64);
            previousInput = input;
        }
        // the later turns' histories were served from the prefix cache, and the client read it
        assertThat(run.get("total_cached_tokens").asLong()).isPositive();
        assertThat(run.get("prefix_cache_hit_rate").asDouble()).isPositive();

        // the simulator's usage in the API's own field grows as a conversation grows
        String question = ("Tell me about the history of the printing press in Europe, " + backend + ". ").repeat(8);
        int first = cachedTokens(http, backend, List.of(question));
        int second = cachedTokens(http, backend, List.of(question, "It began with Gutenberg.", "And then?"));
        assertThat(second).isGreaterThan(first).isGreaterThanOrEqualTo(64);
    }

    /** The {@code ttft_by_turn} series of bench's /metrics, or empty while it does not serve them yet. */
    private static Optional<String> turnSeries(HttpClient http, int port) {
        try {
            String body = http.send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                                    .timeout(Duration.ofSeconds(5))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
            StringBuilder series = new StringBuilder();
            Matcher m = TTFT_BY_TURN.matcher(body);
            while (m.find()) {
                series.append(m.group()).append('\n');
            }
            return series.isEmpty() ? Optional.empty() : Optional.of(series.toString());
        } catch (IOException | InterruptedException notYet) {
            return Optional.empty();
        }
    }

    /**
     * The cached tokens the simulator reports for a non-streamed request of {@code turns} (user,
     * assistant, user, ...) after a system prompt, in {@code backend}'s format and usage field.
     */
    private static int cachedTokens(HttpClient http, String backend, List<String> turns) throws Exception {
        StringBuilder messages = new StringBuilder("[");
        for (int i = 0; i < turns.size(); i++) {
            messages.append(i == 0 ? "" : ", ")
                    .append("{\"role\": \"")
                    .append(i % 2 == 0 ? "user" : "assistant")
                    .append("\", \"content\": \"")
                    .append(turns.get(i))
                    .append("\"}");
        }
        messages.append(']');
        boolean responses = backend.equals("openai-responses");
        String body = responses
                ? "{\"model\": \"" + QWEN + "\", \"max_output_tokens\": 2, \"input\": [{\"role\": \"system\","
                        + " \"content\": \"Be brief.\"}, " + messages.substring(1) + "}"
                : "{\"model\": \"" + QWEN + "\", \"max_tokens\": 2, \"system\": \"Be brief.\", \"messages\": "
                        + messages + "}";
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create(simulator.baseUrl() + (responses ? "/v1/responses" : "/v1/messages")))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode usage = JSON.readTree(response.body()).get("usage");
        return responses
                ? usage.at("/input_tokens_details/cached_tokens").asInt()
                : usage.get("cache_read_input_tokens").asInt();
    }
}
