package io.tokenpulse.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./tokenpulse simulate} alone, answered by plain HTTP requests as {@code curl} would send
 * them: every endpoint of docs/simulator.md's table, in its wire format. Started with every flag the
 * README's Commands table shows for it.
 */
class SimulateIT {
    static final Pattern SERVING = Pattern.compile("^Simulator serving (.+) at (http://127\\.0\\.0\\.1:\\d+) ");
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path home;

    @TempDir
    static Path logs;

    static Tokenpulse.Background simulator;
    static URI base;
    static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        Tokenpulse tokenpulse = new Tokenpulse(home, logs);
        // --speedup 10: the deterministic 100 ms TTFT and 20 ms gaps become 10 ms and 2 ms
        simulator = tokenpulse.start(
                "simulate",
                "--port",
                Integer.toString(FreePorts.one()),
                "--profile",
                "deterministic",
                "--speedup",
                "10");
        Matcher serving = simulator.awaitLine(SERVING, Duration.ofSeconds(60));
        assertThat(serving.group(1)).isEqualTo("facebook/opt-125m");
        base = URI.create(serving.group(2));
    }

    @AfterAll
    static void stop() {
        if (simulator != null) {
            // SIGTERM runs its shutdown hook: the port closes and the JVM exits 143 (terminated by the signal)
            assertThat(simulator.stop()).isIn(0, 143);
        }
    }

    private static HttpResponse<String> get(String path) throws Exception {
        return HTTP.send(
                HttpRequest.newBuilder(base.resolve(path))
                        .timeout(Duration.ofSeconds(30))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> post(String path, String contentType, byte[] body) throws Exception {
        return HTTP.send(
                HttpRequest.newBuilder(base.resolve(path))
                        .timeout(Duration.ofSeconds(30))
                        .header("Content-Type", contentType)
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> postJson(String path, String json) throws Exception {
        return post(path, "application/json", json.getBytes(StandardCharsets.UTF_8));
    }

    /** The JSON payloads of an SSE body's {@code data:} lines, without {@code [DONE]}. */
    private static List<JsonNode> events(String body) {
        return body.lines()
                .filter(l -> l.startsWith("data:"))
                .map(l -> l.substring(5).trim())
                .filter(d -> !d.equals("[DONE]"))
                .map(SimulateIT::parse)
                .toList();
    }

    private static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + json, e);
        }
    }

    @Test
    void healthAndModels() throws Exception {
        assertThat(get("/health").statusCode()).isEqualTo(200);
        HttpResponse<String> models = get("/v1/models");
        assertThat(models.statusCode()).isEqualTo(200);
        assertThat(parse(models.body()).at("/data/0/id").asText()).isEqualTo("facebook/opt-125m");
    }

    @Test
    void completionsStreamTokensThenUsageThenDone() throws Exception {
        HttpResponse<String> response = postJson("/v1/completions", """
        {"model": "facebook/opt-125m", "prompt": "Hello there", "max_tokens": 5, "ignore_eos": true,
         "stream": true, "stream_options": {"include_usage": true}}""");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type"))
                .hasValueSatisfying(t -> assertThat(t).startsWith("text/event-stream"));
        List<JsonNode> events = events(response.body());
        assertThat(events.stream().filter(e -> e.at("/choices/0/text").isTextual()))
                .hasSize(5);
        assertThat(events.get(events.size() - 1).at("/usage/completion_tokens").asInt())
                .isEqualTo(5);
        assertThat(response.body().strip()).endsWith("data: [DONE]");
    }

    @Test
    void completionsWithoutStreamAnswerOneBody() throws Exception {
        HttpResponse<String> response = postJson("/v1/completions", """
        {"model": "facebook/opt-125m", "prompt": "Hello there", "max_tokens": 4, "ignore_eos": true}""");

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode body = parse(response.body());
        assertThat(body.at("/choices/0/text").asText()).isNotEmpty();
        assertThat(body.at("/usage/completion_tokens").asInt()).isEqualTo(4);
    }

    @Test
    void chatCompletionsStreamDeltas() throws Exception {
        HttpResponse<String> response = postJson("/v1/chat/completions", """
        {"model": "facebook/opt-125m", "messages": [{"role": "user", "content": "Hello there"}],
         "max_completion_tokens": 3, "ignore_eos": true, "stream": true, "stream_options": {"include_usage": true}}""");

        assertThat(response.statusCode()).isEqualTo(200);
        List<JsonNode> events = events(response.body());
        assertThat(events.stream()
                        .filter(e -> e.at("/choices/0/delta/content").isTextual()
                                && !e.at("/choices/0/delta/content").asText().isEmpty()))
                .hasSize(3);
        assertThat(response.body().strip()).endsWith("data: [DONE]");
    }

    @Test
    void tgiGenerateStream() throws Exception {
        HttpResponse<String> response = postJson("/generate_stream", """
        {"inputs": "Hello there", "parameters": {"max_new_tokens": 3, "ignore_eos_token": true, "temperature": 0.01, "top_p": 0.99}}""");

        assertThat(response.statusCode()).isEqualTo(200);
        List<JsonNode> events = events(response.body());
        assertThat(events).hasSize(3);
        assertThat(events.get(2).at("/generated_text").asText()).isNotEmpty();
    }

    @Test
    void tensorRtLlmGenerateStream() throws Exception {
        HttpResponse<String> response = postJson("/v2/models/ensemble/generate_stream", """
        {"text_input": "Hello there", "max_tokens": 3, "min_length": 3, "stream": true}""");

        assertThat(response.statusCode()).isEqualTo(200);
        List<JsonNode> events = events(response.body());
        assertThat(events).hasSize(3);
        assertThat(events)
                .allSatisfy(e -> assertThat(e.at("/text_output").isTextual()).isTrue());
    }

    @Test
    void audioTranscriptionsStreamChunks() throws Exception {
        String boundary = "tokenpulse-acceptance";
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        field(body, boundary, "model", "facebook/opt-125m");
        field(body, boundary, "max_completion_tokens", "3");
        field(body, boundary, "stream", "true");
        body.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.wav\"\r\n"
                        + "Content-Type: audio/wav\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        body.writeBytes(silentWav(16_000, 16_000));
        body.writeBytes(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.US_ASCII));

        HttpResponse<String> response =
                post("/v1/audio/transcriptions", "multipart/form-data; boundary=" + boundary, body.toByteArray());

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(events(response.body()).stream()
                        .filter(e -> e.at("/choices/0/delta/content").isTextual()))
                .isNotEmpty();
        assertThat(response.body().strip()).endsWith("data: [DONE]");
    }

    @Test
    void profilerEndpointsAnswer200() throws Exception {
        assertThat(postJson("/start_profile", "{}").statusCode()).isEqualTo(200);
        assertThat(postJson("/stop_profile", "{}").statusCode()).isEqualTo(200);
    }

    @Test
    void aModelNotServedIs404() throws Exception {
        HttpResponse<String> response = postJson("/v1/completions", """
        {"model": "no/such-model", "prompt": "Hi", "max_tokens": 2, "stream": true}""");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.body()).contains("The model `no/such-model` does not exist.");
    }

    private static void field(ByteArrayOutputStream body, String boundary, String name, String value) {
        body.writeBytes(
                ("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + name + "\"\r\n\r\n" + value + "\r\n")
                        .getBytes(StandardCharsets.UTF_8));
    }

    /** A mono 16-bit PCM WAV of {@code samples} zero samples. */
    private static byte[] silentWav(int sampleRate, int samples) {
        int dataBytes = samples * 2;
        ByteBuffer wav = ByteBuffer.allocate(44 + dataBytes).order(ByteOrder.LITTLE_ENDIAN);
        wav.put("RIFF".getBytes(StandardCharsets.US_ASCII))
                .putInt(36 + dataBytes)
                .put("WAVE".getBytes(StandardCharsets.US_ASCII));
        wav.put("fmt ".getBytes(StandardCharsets.US_ASCII))
                .putInt(16)
                .putShort((short) 1)
                .putShort((short) 1)
                .putInt(sampleRate)
                .putInt(sampleRate * 2)
                .putShort((short) 2)
                .putShort((short) 16);
        wav.put("data".getBytes(StandardCharsets.US_ASCII)).putInt(dataBytes);
        return wav.array();
    }
}
