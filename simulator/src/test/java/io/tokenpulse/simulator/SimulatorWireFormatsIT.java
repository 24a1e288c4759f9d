package io.tokenpulse.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.sound.sampled.AudioFileFormat;
import javax.sound.sampled.AudioFormat;
import javax.sound.sampled.AudioInputStream;
import javax.sound.sampled.AudioSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The TGI, Triton, transcription and profiler endpoints as a client sees them on the wire. */
class SimulatorWireFormatsIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final String BOUNDARY = "sim-test-boundary";
    private static SimulatorServer server;

    @BeforeAll
    static void start() throws InterruptedException {
        server = SimulatorServer.start(SimulatorConfig.deterministic(Duration.ofMillis(5), Duration.ofMillis(2))
                .withServedModelNames(List.of("m"))
                .withMaxModelLen(100));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void tgiStreamsOneTokenEventPerTokenWithoutSpaceAndGeneratedTextOnTheLast() throws Exception {
        HttpResponse<String> response = post(
                "/generate_stream",
                "application/json",
                "{\"inputs\":\"one two three\",\"parameters\":{\"max_new_tokens\":3,\"do_sample\":true,"
                        + "\"temperature\":0.01,\"top_p\":0.99,\"truncate\":3,\"ignore_eos_token\":true}}");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).startsWith("data:{").doesNotContain("[DONE]");
        List<JsonNode> events = events(response.body(), "data:");
        assertThat(events).hasSize(3);
        assertThat(events.get(0).at("/index").asInt()).isEqualTo(1);
        assertThat(events.get(0).at("/token/text").asText()).isEqualTo("tok0 ");
        assertThat(events.get(0).at("/token/special").asBoolean()).isFalse();
        assertThat(events.get(0).get("generated_text").isNull()).isTrue();
        assertThat(events.get(2).get("generated_text").asText()).isEqualTo("tok0 tok1 tok2 ");
        assertThat(events.get(2).get("details").isNull()).isTrue();
    }

    @Test
    void tritonStreamsTextOutputDeltasNamingTheUrlModel() throws Exception {
        HttpResponse<String> response = post(
                "/v2/models/ensemble/generate_stream",
                "application/json",
                "{\"accumulate_tokens\":true,\"text_input\":\"a b\",\"temperature\":0.0,\"top_p\":1.0,"
                        + "\"max_tokens\":4,\"stream\":true,\"min_length\":4}");

        assertThat(response.statusCode()).isEqualTo(200);
        List<JsonNode> events = events(response.body(), "data: ");
        assertThat(events)
                .extracting(e -> e.get("text_output").asText())
                .containsExactly("tok0 ", "tok1 ", "tok2 ", "tok3 ");
        assertThat(events.get(0).get("model_name").asText()).isEqualTo("ensemble");
        assertThat(response.body()).doesNotContain("[DONE]");
    }

    @Test
    void nonStreamedCompletionIsTheWholeBodyDeepSpeedMiiAnswers() throws Exception {
        HttpResponse<String> response = post(
                "/v1/completions",
                "application/json",
                "{\"model\":\"m\",\"prompt\":\"a b\",\"max_tokens\":2,\"temperature\":0.01,\"top_p\":1.0}");

        JsonNode body = JSON.readTree(response.body());
        assertThat(body.at("/choices/0/text").asText()).isEqualTo("tok0 tok1 ");
        assertThat(body.at("/usage/completion_tokens").asInt()).isEqualTo(2);
    }

    @Test
    void transcriptionStreamsChunksWithContinuousUsageThenUsageThenDone() throws Exception {
        HttpResponse<String> response = post(
                "/v1/audio/transcriptions",
                "multipart/form-data; boundary=" + BOUNDARY,
                form(
                        wav(0.5),
                        "model",
                        "m",
                        "max_completion_tokens",
                        "3",
                        "stream",
                        "True",
                        "language",
                        "en",
                        "stream_include_usage",
                        "True",
                        "stream_continuous_usage_stats",
                        "True"));

        assertThat(response.statusCode()).isEqualTo(200);
        List<String> raw = rawEvents(response.body());
        assertThat(raw).hasSize(5).last().isEqualTo("[DONE]");
        JsonNode first = JSON.readTree(raw.get(0));
        assertThat(first.get("object").asText()).isEqualTo("transcription.chunk");
        assertThat(first.at("/choices/0/delta/content").asText()).isEqualTo("tok0 ");
        assertThat(first.at("/choices/0").has("finish_reason")).isFalse();
        // 0.5 s of audio = 50 log-mel frames, Whisper's prompt length in vLLM's usage
        assertThat(first.at("/usage/prompt_tokens").asInt()).isEqualTo(50);
        assertThat(first.at("/usage/completion_tokens").asInt()).isEqualTo(1);
        assertThat(JSON.readTree(raw.get(2)).at("/usage/completion_tokens").asInt())
                .isEqualTo(3);
        assertThat(JSON.readTree(raw.get(2)).at("/choices/0/finish_reason").asText())
                .isEqualTo("length");
        JsonNode usage = JSON.readTree(raw.get(3));
        assertThat(usage.get("choices")).isEmpty();
        assertThat(usage.at("/usage/completion_tokens").asInt()).isEqualTo(3);
    }

    @Test
    void continuousUsageStatsPutUsageOnEveryCompletionsChunk() throws Exception {
        HttpResponse<String> response = post(
                "/v1/completions",
                "application/json",
                "{\"prompt\":\"a b c\",\"max_tokens\":2,\"stream\":true,"
                        + "\"stream_options\":{\"include_usage\":true,\"continuous_usage_stats\":true}}");

        List<String> raw = rawEvents(response.body());
        assertThat(JSON.readTree(raw.get(0)).at("/usage/completion_tokens").asInt())
                .isEqualTo(1);
        assertThat(JSON.readTree(raw.get(1)).at("/usage/completion_tokens").asInt())
                .isEqualTo(2);
        assertThat(JSON.readTree(raw.get(1)).at("/usage/prompt_tokens").asInt()).isEqualTo(3);
    }

    @Test
    void aReasoningModelsChatStreamsItsThinkingFirstAndCountsItInUsage() throws Exception {
        try (SimulatorServer reasoning =
                SimulatorServer.start(SimulatorConfig.deterministic(Duration.ofMillis(5), Duration.ofMillis(2))
                        .withReasoningTokens(2))) {
            HttpResponse<String> response = CLIENT.send(
                    HttpRequest.newBuilder(reasoning.baseUri().resolve("/v1/chat/completions"))
                            .header("content-type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(
                                    "{\"messages\":[{\"role\":\"user\",\"content\":\"a b\"}],\"max_tokens\":3,"
                                            + "\"stream\":true,\"stream_options\":{\"include_usage\":true}}"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());

            List<String> raw = rawEvents(response.body());
            assertThat(raw).hasSize(6).endsWith("[DONE]"); // role, two thinking tokens, the answer, usage
            List<JsonNode> events = new ArrayList<>();
            for (String event : raw.subList(0, 5)) {
                events.add(JSON.readTree(event));
            }
            assertThat(events.get(1).at("/choices/0/delta/reasoning_content").asText())
                    .isEqualTo("tok0 ");
            assertThat(events.get(1).at("/choices/0/delta").has("content"))
                    .as("vLLM's reasoning parser sends no content beside the thinking")
                    .isFalse();
            assertThat(events.get(2).at("/choices/0/delta/reasoning_content").asText())
                    .isEqualTo("tok1 ");
            assertThat(events.get(3).at("/choices/0/delta/content").asText()).isEqualTo("tok2 ");
            assertThat(events.get(3).at("/choices/0/delta").has("reasoning_content"))
                    .isFalse();
            assertThat(events.get(4).at("/usage/completion_tokens").asInt()).isEqualTo(3);
            assertThat(events.get(4)
                            .at("/usage/completion_tokens_details/reasoning_tokens")
                            .asInt())
                    .isEqualTo(2);
        }
    }

    @Test
    void profilerEndpointsAnswer200AndAreCounted() throws Exception {
        long starts = server.stats().profileStarts();
        long stops = server.stats().profileStops();

        assertThat(post("/start_profile", "application/json", "").statusCode()).isEqualTo(200);
        assertThat(post("/stop_profile", "application/json", "").statusCode()).isEqualTo(200);

        assertThat(server.stats().profileStarts()).isEqualTo(starts + 1);
        assertThat(server.stats().profileStops()).isEqualTo(stops + 1);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "TGI malformed JSON          | /generate_stream                    | {\"inputs\":             | 400 | request body is not valid JSON",
                "TGI without inputs          | /generate_stream                    | {\"parameters\":{}}      | 400 | 'inputs' is required",
                "TGI zero temperature        | /generate_stream                    | {\"inputs\":\"a\",\"parameters\":{\"temperature\":0}} | 400 | `temperature` must be strictly positive",
                "TGI prompt beyond context   | /generate_stream                    | {\"inputs\":\"$LONG\"}    | 400 | maximum context length is 100 tokens",
                "Triton malformed JSON       | /v2/models/ensemble/generate_stream | [1,                     | 400 | request body is not valid JSON",
                "Triton unknown model        | /v2/models/llama/generate_stream    | {\"text_input\":\"a\"}   | 404 | The model `llama` does not exist.",
                "Triton prompt beyond context| /v2/models/ensemble/generate_stream | {\"text_input\":\"$LONG\"} | 400 | maximum context length is 100 tokens",
            })
    void badJsonRequestsGetOpenAiStyleErrors(String why, String path, String body, int status, String message)
            throws Exception {
        HttpResponse<String> response = post(path, "application/json", body.replace("$LONG", "w ".repeat(120)));

        assertThat(response.statusCode()).isEqualTo(status);
        JsonNode error = JSON.readTree(response.body()).get("error");
        assertThat(error.get("message").asText()).contains(message);
        assertThat(error.get("code").asInt()).isEqualTo(status);
    }

    @Test
    void transcriptionBadInputGetsOpenAiStyleErrors() throws Exception {
        String multipart = "multipart/form-data; boundary=" + BOUNDARY;
        assertError(post("/v1/audio/transcriptions", "application/json", "{}"), 400, "send multipart/form-data");
        assertError(post("/v1/audio/transcriptions", multipart, form(null, "model", "m")), 400, "no 'file' part");
        assertError(
                post(
                        "/v1/audio/transcriptions",
                        multipart,
                        form("not audio".getBytes(StandardCharsets.UTF_8), "model", "m")),
                400,
                "not audio the simulator can read");
        assertError(
                post("/v1/audio/transcriptions", multipart, form(wav(0.1), "model", "whisper")),
                404,
                "The model `whisper` does not exist.");
        // 2 s = 200 frames, beyond the 100-token context
        assertError(
                post("/v1/audio/transcriptions", multipart, form(wav(2), "model", "m")),
                400,
                "maximum context length is 100 tokens");
    }

    private static void assertError(HttpResponse<String> response, int status, String message) throws Exception {
        assertThat(response.statusCode()).isEqualTo(status);
        assertThat(JSON.readTree(response.body()).at("/error/message").asText()).contains(message);
    }

    private static HttpResponse<String> post(String path, String contentType, Object body) throws Exception {
        HttpRequest.BodyPublisher publisher = body instanceof byte[] bytes
                ? HttpRequest.BodyPublishers.ofByteArray(bytes)
                : HttpRequest.BodyPublishers.ofString((String) body);
        return CLIENT.send(
                HttpRequest.newBuilder(server.baseUri().resolve(path))
                        .header("content-type", contentType)
                        .POST(publisher)
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** 16 kHz mono 16-bit silence. */
    private static byte[] wav(double seconds) throws Exception {
        AudioFormat format = new AudioFormat(16_000, 16, 1, true, false);
        int frames = (int) Math.round(seconds * 16_000);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        AudioSystem.write(
                new AudioInputStream(new ByteArrayInputStream(new byte[frames * 2]), format, frames),
                AudioFileFormat.Type.WAVE,
                out);
        return out.toByteArray();
    }

    private static byte[] form(byte[] file, String... fields) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < fields.length; i += 2) {
            out.writeBytes(("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"" + fields[i] + "\"\r\n\r\n"
                            + fields[i + 1] + "\r\n")
                    .getBytes(StandardCharsets.UTF_8));
        }
        if (file != null) {
            out.writeBytes(
                    ("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.wav\"\r\n"
                                    + "Content-Type: audio/wav\r\n\r\n")
                            .getBytes(StandardCharsets.UTF_8));
            out.writeBytes(file);
            out.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8));
        }
        out.writeBytes(("--" + BOUNDARY + "--\r\n").getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    private static List<JsonNode> events(String sse, String prefix) throws Exception {
        List<JsonNode> events = new ArrayList<>();
        for (String event : sse.split("\n\n")) {
            if (event.startsWith(prefix)) {
                events.add(JSON.readTree(event.substring(prefix.length())));
            }
        }
        return events;
    }

    private static List<String> rawEvents(String sse) {
        return Arrays.stream(sse.split("\n\n"))
                .filter(e -> e.startsWith("data: "))
                .map(e -> e.substring(6))
                .toList();
    }
}
