package io.tokenpulse.producer.backend;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tokenpulse.producer.backend.BackendSettings.Sampling;
import io.tokenpulse.producer.dataset.Prompt;
import io.tokenpulse.producer.dataset.Wav;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The payloads and readings of vLLM's tgi, tensorrt-llm, deepspeed-mii and openai-audio request functions. */
class VllmRequestFunctionsTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final PromptRequest PROMPT = new PromptRequest("bench-3", "Say hi", 32);
    private static final Sampling IGNORE_EOS = new Sampling(null, null, null, null, null, true);

    private static BackendSettings settings(String path, Sampling sampling) {
        return new BackendSettings(URI.create("http://127.0.0.1:8000" + path), "m", "sk-test", Map.of(), sampling);
    }

    private static void assertBody(HttpCall call, String expectedJson) throws Exception {
        assertThat(MAPPER.readTree(call.body())).isEqualTo(MAPPER.readTree(expectedJson));
    }

    @Test
    void tgiSendsInputsAndTgisAcceptableFixedSamplingWithoutApiKey() throws Exception {
        HttpCall call = Backends.get("tgi").buildRequest(settings("/generate_stream", IGNORE_EOS), PROMPT);
        assertBody(call, """
                {"inputs": "Say hi", "parameters": {"max_new_tokens": 32, "do_sample": true,
                 "temperature": 0.01, "top_p": 0.99, "ignore_eos_token": true}}""");
        assertThat(call.header("Authorization")).isNull();
        assertThat(call.header("x-request-id")).isEqualTo("bench-3");
    }

    @Test
    void tensorRtLlmAsksForMinLengthWhenIgnoringEos() throws Exception {
        HttpCall call = Backends.get("tensorrt-llm")
                .buildRequest(settings("/v2/models/ensemble/generate_stream", IGNORE_EOS), PROMPT);
        assertBody(call, """
                {"accumulate_tokens": true, "text_input": "Say hi", "temperature": 0.0, "top_p": 1.0,
                 "max_tokens": 32, "stream": true, "min_length": 32}""");
    }

    @Test
    void deepSpeedMiiAsksForOneWholeCompletionWithTheApiKey() throws Exception {
        HttpCall call =
                Backends.get("deepspeed-mii").buildRequest(settings("/v1/completions", Sampling.GREEDY), PROMPT);
        assertBody(call, """
                {"model": "m", "prompt": "Say hi", "max_tokens": 32, "temperature": 0.01, "top_p": 1.0}""");
        assertThat(call.header("Authorization")).isEqualTo("Bearer sk-test");
        assertThat(Backends.get("deepspeed-mii").newResponse().streamed()).isFalse();
    }

    @Test
    void openAiAudioSendsAWavFileAndVllmsFlatFormFields() {
        HttpCall call = Backends.get("openai-audio")
                .buildRequest(settings("/v1/audio/transcriptions", Sampling.GREEDY), PROMPT);
        assertThat(call.header("Content-Type")).startsWith("multipart/form-data; boundary=");
        String body = new String(call.body(), UTF_8);
        assertThat(body)
                .contains("name=\"file\"", "audio/wav", "RIFF", "WAVE")
                .contains("name=\"max_completion_tokens\"\r\n", "\r\n\r\n32\r\n")
                .contains("name=\"stream_continuous_usage_stats\"")
                .contains("True")
                .doesNotContain("Say hi");
        // 5 s of 16 kHz 16-bit mono PCM plus a 44-byte header
        assertThat(SyntheticAudio.WAV).hasSize(5 * 16_000 * 2 + 44);
        assertThat(call.body()).containsSequence(SyntheticAudio.WAV);
    }

    @Test
    void openAiAudioSendsTheDatasetsOwnClipInsteadOfTheTone() {
        byte[] clip = Wav.pcm16(new double[] {0.25, -0.25, 0.75}, 8_000);
        HttpCall call = Backends.get("openai-audio")
                .buildRequest(
                        settings("/v1/audio/transcriptions", Sampling.GREEDY),
                        PromptRequest.of("bench-4", new Prompt.Audio("", clip, 3 / 8_000.0), 32));
        assertThat(call.body()).containsSequence(clip);
        assertThat(call.body().length).isLessThan(clip.length + 2048);
    }

    @Test
    void openAiAudioCountsTheSecondsItSendsAsVllmsInputAudioDuration() {
        Backend audio = Backends.get("openai-audio");
        assertThat(audio.inputAudioSeconds(new Prompt.Audio("", Wav.pcm16(new double[4_000], 16_000), 0.25)))
                .isEqualTo(0.25);
        assertThat(audio.inputAudioSeconds(new Prompt.Text("Say hi")))
                .as("the synthetic tone")
                .isEqualTo(5.0);
        assertThat(Backends.get("openai-chat").inputAudioSeconds(new Prompt.Text("Say hi")))
                .isZero();
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "tgi           | /v1/completions          | needs an endpoint path ending in 'generate_stream'",
                "tensorrt-llm  | /v1/completions          | needs an endpoint path ending in 'generate_stream'",
                "deepspeed-mii | /generate_stream         | needs an endpoint path ending in 'completions' or 'profile'",
                "openai-audio  | /v1/completions          | needs an endpoint path ending in 'transcriptions' or 'translations'",
            })
    void wrongEndpointIsRefusedInOneLine(String backend, String path, String message) {
        assertThatThrownBy(() -> Backends.get(backend).check(settings(path, Sampling.GREEDY)))
                .hasMessageContaining(message)
                .hasMessageEndingWith("change --endpoint");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "tgi           | /generate_stream",
                "tensorrt-llm  | /v2/models/ensemble/generate_stream",
                "deepspeed-mii | /v1/completions",
                "openai-audio  | /v1/audio/transcriptions",
            })
    void samplingFlagsAreRefusedAsVllmRefusesThem(String backend, String path) {
        assertThatThrownBy(() ->
                        Backends.get(backend).check(settings(path, new Sampling(0.5, null, 5, null, null, false))))
                .hasMessage("backend " + backend + " sends vLLM's fixed sampling parameters (sampling flags only"
                        + " reach OpenAI-compatible backends); remove --temperature --top-k");
    }

    @Test
    void extraBodyAndPenaltiesAreRefusedBeyondTheOpenAiJsonBackends() throws Exception {
        var extra = (com.fasterxml.jackson.databind.node.ObjectNode)
                new com.fasterxml.jackson.databind.ObjectMapper().readTree("{\"a\": 1}");
        assertThatThrownBy(() -> Backends.get("tgi")
                        .check(settings(
                                "/generate_stream",
                                new Sampling(null, null, null, null, null, false, 0.1, null, 1.2, extra))))
                .hasMessageEndingWith("remove --frequency-penalty --repetition-penalty --extra-body");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {"deepspeed-mii | /v1/completions", "openai-audio | /v1/audio/transcriptions"})
    void ignoreEosIsRefusedWhereVllmDropsIt(String backend, String path) {
        assertThatThrownBy(() -> Backends.get(backend).check(settings(path, IGNORE_EOS)))
                .hasMessageEndingWith("remove --ignore-eos");
    }

    private static RequestOutcome read(String backend, String... payloads) {
        ResponseTracker tracker = Backends.get(backend).newResponse();
        long t = 100;
        for (String payload : payloads) {
            byte[] bytes = payload.getBytes(UTF_8);
            tracker.onEvent(bytes, 0, bytes.length, t += 10);
        }
        return tracker.finish(200, false);
    }

    @Test
    void tgiKeepsGeneratedTextNotTheTokenTexts() {
        RequestOutcome o = read(
                "tgi",
                "{\"index\":1,\"token\":{\"id\":5,\"text\":\"Hel\",\"special\":false},\"generated_text\":null}",
                "{\"index\":2,\"token\":{\"id\":6,\"text\":\"lo\",\"special\":false},\"generated_text\":\"Hello!\"}");
        assertThat(o.success()).isTrue();
        assertThat(o.chunkEvents()).isEqualTo(2);
        assertThat(o.generatedText()).isEqualTo("Hello!");
    }

    @Test
    void tgiErrorEventFailsTheRequestWithTheServersMessage() {
        RequestOutcome o = read(
                "tgi",
                "{\"index\":1,\"token\":{\"text\":\"a\"}}",
                "{\"error\":\"Request failed during generation: CUDA OOM\",\"error_type\":\"generation\"}");
        assertThat(o.success()).isFalse();
        assertThat(o.error()).isEqualTo("server error: Request failed during generation: CUDA OOM");
    }

    @Test
    void tensorRtLlmEventWithoutTextOutputFailsAsVllmsKeyErrorDoes() {
        RequestOutcome o = read("tensorrt-llm", "{\"text_output\":\"a\"}", "{\"model_name\":\"ensemble\"}");
        assertThat(o.success()).isFalse();
        assertThat(o.error()).isEqualTo("malformed event: no text_output");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "OpenAI choices       | {\"choices\":[{\"text\":\"abc\"}],\"usage\":{\"completion_tokens\":3}} | true  | abc",
                "MII REST text list   | {\"text\":[\"xyz\"]}                                                  | true  | xyz",
                "neither              | {\"result\":1}                                                        | false | ''",
            })
    void deepSpeedMiiTextComesFromChoicesOrTextAndUsageIsIgnored(
            String why, String body, boolean success, String text) {
        RequestOutcome o = read("deepspeed-mii", body);
        assertThat(o.success()).isEqualTo(success);
        assertThat(o.generatedText()).isEqualTo(text);
        assertThat(o.usage()).isNull();
    }
}
