package io.tokenpulse.acceptance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every bad input of issue 11 that needs no running cluster (those that do are in
 * {@link PlatformFlagsIT}): a non-zero exit, one line on stderr that names what to change, no stack
 * trace, and nothing on stdout but bench's Namespace line. Each fails before the embedded platform
 * starts, so each takes a JVM start, not a run.
 */
class BadInputIT {
    @TempDir
    static Path home;

    @TempDir
    static Path logs;

    @TempDir
    static Path files;

    static Tokenpulse tokenpulse;

    @BeforeAll
    static void setUp() {
        tokenpulse = new Tokenpulse(home, logs);
    }

    /** A bench that would run 5 tiny prompts against the built-in simulator, plus {@code extra}. */
    private static List<String> bench(String... extra) {
        List<String> args = new ArrayList<>(List.of(
                "bench",
                "--simulate",
                "--dataset-name",
                "random",
                "--num-prompts",
                "5",
                "--random-input-len",
                "16",
                "--random-output-len",
                "4",
                "--simulate-profile",
                "deterministic",
                "--metrics-port",
                "0",
                "--data-dir",
                files.resolve("data").toString()));
        args.addAll(List.of(extra));
        return args;
    }

    static Stream<Arguments> cases() throws IOException {
        Path binary =
                Files.write(files.resolve("model.bin"), new byte[] {0x00, (byte) 0xC3, 0x28, (byte) 0xFF, 0x7F, '\n'});
        Path corrupt = Files.createDirectories(files.resolve("corrupt-tokenizer"));
        Files.writeString(corrupt.resolve("tokenizer.json"), "{\"model\": {");
        Path aFile = Files.writeString(files.resolve("a-file"), "not a directory");
        String qwen3 = Tokenpulse.QWEN3.toString();
        Path asr = Files.writeString(
                files.resolve("asr.jsonl"), "{\"audio\": {\"array\": [0.0, 0.5], \"sampling_rate\": 16000}}\n");
        Path blazedit = Files.writeString(
                files.resolve("blazedit.jsonl"),
                "{\"code\": \"x = 1\", \"change_request\": \"Rename x.\", \"norm_distance\": 0.5}\n");
        int closedPort = FreePorts.one();
        return Stream.of(
                Arguments.of("unknown flag", List.of("bench", "--no-such-flag"), 2, "Unknown option: '--no-such-flag'"),
                Arguments.of(
                        "unknown subcommand", List.of("benchmark"), 2, "Unmatched argument at index 0: 'benchmark'"),
                Arguments.of("zero prompts", bench("--num-prompts", "0"), 2, "--num-prompts must be >= 1, got 0"),
                Arguments.of("negative prompts", bench("--num-prompts", "-3"), 2, "--num-prompts must be >= 1, got -3"),
                Arguments.of(
                        "pipeline nice beyond Linux's range",
                        bench("--pipeline-nice", "20"),
                        2,
                        "--pipeline-nice 20 is not a nice value from 0 to 19"),
                Arguments.of(
                        "negative rate",
                        bench("--request-rate", "-1"),
                        2,
                        "--request-rate must be > 0 or inf, got -1.0"),
                Arguments.of("rate not a number", bench("--request-rate", "abc"), 2, "'abc' is not a number"),
                Arguments.of(
                        "negative drain timeout",
                        bench("--drain-timeout-s", "-1"),
                        2,
                        "--drain-timeout-s must be between 0 and 31536000 (a year), got -1"),
                Arguments.of(
                        "zero request timeout",
                        bench("--request-timeout-s", "0"),
                        2,
                        "--request-timeout-s must be between 1 and 31536000 (a year), got 0"),
                Arguments.of(
                        "stream idle timeout past a year",
                        bench("--stream-idle-timeout-s", "99999999999"),
                        2,
                        "--stream-idle-timeout-s must be between 1 and 31536000 (a year), got 99999999999"),
                Arguments.of(
                        "zero concurrency",
                        bench("--max-concurrency", "0"),
                        2,
                        "--max-concurrency must be >= 1, got 0"),
                Arguments.of(
                        "missing dataset path",
                        bench(
                                "--tokenizer",
                                qwen3,
                                "--dataset-name",
                                "sonnet",
                                "--dataset-path",
                                files.resolve("no-such.txt").toString()),
                        2,
                        "--dataset-path " + files.resolve("no-such.txt") + " cannot be read"),
                Arguments.of(
                        "dataset path is a folder",
                        bench("--tokenizer", qwen3, "--dataset-name", "sonnet", "--dataset-path", files.toString()),
                        2,
                        "--dataset-path " + files + " cannot be read"),
                Arguments.of(
                        "binary dataset",
                        bench("--tokenizer", qwen3, "--dataset-name", "sonnet", "--dataset-path", binary.toString()),
                        2,
                        "--dataset-path " + binary + " is not UTF-8 text"),
                Arguments.of(
                        "ASR clip bounds the wrong way round",
                        bench(
                                "--backend",
                                "openai-audio",
                                "--endpoint",
                                "/v1/audio/transcriptions",
                                "--dataset-name",
                                "hf",
                                "--dataset-path",
                                asr.toString(),
                                "--asr-min-audio-len-sec",
                                "30",
                                "--asr-max-audio-len-sec",
                                "1"),
                        2,
                        "--asr-max-audio-len-sec must be >= --asr-min-audio-len-sec (30.0), got 1.0"),
                Arguments.of(
                        "Blazedit distances the wrong way round",
                        bench(
                                "--dataset-name",
                                "hf",
                                "--dataset-path",
                                blazedit.toString(),
                                "--blazedit-min-distance",
                                "0.6",
                                "--blazedit-max-distance",
                                "0.2"),
                        2,
                        "--blazedit-max-distance must be >= --blazedit-min-distance (0.6), got 0.2"),
                Arguments.of(
                        "tokenizer not there",
                        bench("--tokenizer", files.resolve("no-such-tokenizer").toString()),
                        2,
                        "tokenizer path '" + files.resolve("no-such-tokenizer") + "' does not exist"),
                Arguments.of(
                        "corrupt tokenizer.json",
                        bench("--tokenizer", corrupt.toString()),
                        2,
                        "cannot load tokenizer '" + corrupt + "'"),
                Arguments.of(
                        "model id not available offline",
                        List.of(
                                "bench",
                                "--model",
                                "no-such-org/no-such-model",
                                "--dataset-name",
                                "random",
                                "--metrics-port",
                                "0"),
                        2,
                        "pass --tokenizer /path/to/dir-with-tokenizer.json"),
                Arguments.of(
                        "registry on a closed port",
                        bench(
                                "--bootstrap-servers",
                                "127.0.0.1:" + FreePorts.one(),
                                "--schema-registry-url",
                                "http://127.0.0.1:" + FreePorts.one()),
                        1,
                        "check --schema-registry-url"),
                Arguments.of(
                        "frugal with an external cluster",
                        bench(
                                "--frugal",
                                "--bootstrap-servers",
                                "127.0.0.1:" + FreePorts.one(),
                                "--schema-registry-url",
                                "http://127.0.0.1:" + FreePorts.one()),
                        2,
                        "--frugal defers the in-process aggregator; with --bootstrap-servers there is none"),
                Arguments.of(
                        "malformed goodput",
                        bench("--goodput", "ttft=5"),
                        2,
                        "bad --goodput pair 'ttft=5': write KEY:VALUE"),
                Arguments.of(
                        "unknown percentile metric",
                        bench("--percentile-metrics", "ttft,foo"),
                        2,
                        "unknown metric 'foo': use one of ttft, tpot, itl, e2el, token_latency"),
                Arguments.of(
                        "percentile above 100",
                        bench("--metric-percentiles", "101"),
                        2,
                        "'101' is not a number in [0, 100]"),
                Arguments.of(
                        "metadata without =",
                        bench("--save-result", "--metadata", "novalue"),
                        2,
                        "bad --metadata 'novalue': write KEY=VALUE"),
                Arguments.of(
                        "result dir not writable",
                        bench(
                                "--save-result",
                                "--result-dir",
                                aFile.resolve("sub").toString()),
                        2,
                        "--result-dir " + aFile.resolve("sub") + " cannot be created"),
                Arguments.of(
                        "result dir is a file",
                        bench("--save-result", "--result-dir", aFile.toString()),
                        2,
                        "--result-dir " + aFile + " cannot be created (a file of that name exists)"),
                Arguments.of(
                        "negative warm-ups", bench("--num-warmups", "-1"), 2, "--num-warmups must be >= 0, got -1"),
                Arguments.of(
                        "no stream thread",
                        List.of("aggregate", "--stream-threads", "0", "--metrics-port", "0"),
                        2,
                        "--stream-threads must be >= 1, got 0"),
                Arguments.of(
                        "extra body not JSON",
                        bench("--extra-body", "{max_tokens: 3"),
                        2,
                        "--extra-body is not valid JSON"),
                Arguments.of(
                        "extra body not an object",
                        bench("--extra-body", "[1, 2]"),
                        2,
                        "--extra-body must be a JSON object ({...}), got [1, 2]"),
                Arguments.of(
                        "extra body for a backend that cannot take it",
                        bench("--backend", "tgi", "--endpoint", "/generate_stream", "--extra-body", "{}"),
                        2,
                        "remove --extra-body"),
                Arguments.of(
                        "zero repetition penalty",
                        bench("--repetition-penalty", "0"),
                        2,
                        "--repetition-penalty must be > 0, got 0.0"),
                Arguments.of("penalty not a number", bench("--frequency-penalty", "high"), 2, "'high' is not a number"),
                Arguments.of(
                        "label with a slash",
                        bench("--save-result", "--label", "a/b"),
                        2,
                        "--label must be a non-empty file name prefix without '/', got 'a/b'"),
                Arguments.of(
                        "base url neither http nor https",
                        List.of(
                                "bench",
                                "--model",
                                "gpt2",
                                "--dataset-name",
                                "random",
                                "--base-url",
                                "ftp://127.0.0.1:21",
                                "--metrics-port",
                                "0"),
                        2,
                        "--base-url must be an http://host:port or https://host:port URL, got ftp://127.0.0.1:21"),
                Arguments.of(
                        "no --model and no server to ask",
                        List.of(
                                "bench",
                                "--dataset-name",
                                "random",
                                "--port",
                                Integer.toString(closedPort),
                                "--metrics-port",
                                "0"),
                        2,
                        "failed to fetch models from http://127.0.0.1:" + closedPort + "/v1/models"),
                Arguments.of(
                        "mistral tokenizer mode",
                        bench("--tokenizer-mode", "mistral"),
                        2,
                        "--tokenizer-mode mistral needs mistral_common's tokenizer (tekken.json or tokenizer.model.v*)"),
                Arguments.of(
                        "custom tokenizer mode without --tokenizer",
                        bench("--tokenizer-mode", "custom"),
                        2,
                        "--tokenizer-mode custom takes the tokenizer --tokenizer names; pass --tokenizer"),
                Arguments.of(
                        "simulator port not a number",
                        List.of("simulate", "--port", "http"),
                        2,
                        "Invalid value for option '--port': 'http' is not an int"),
                Arguments.of(
                        "CPU cost on the deterministic simulator",
                        List.of("simulate", "--profile", "deterministic", "--cpu-per-token-us", "100"),
                        2,
                        "--cpu-per-token-us needs --profile cpu or default: the deterministic profile has no engine "
                                + "steps to compute"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void oneLineSaysWhatToChange(String why, List<String> args, int exitCode, String expected) {
        Tokenpulse.Result result = tokenpulse.run(Tokenpulse.ROOT, Duration.ofSeconds(120), args);

        assertOneLineError(result, exitCode, expected);
    }

    /** The default dataset (vLLM's sharegpt) reads a file: without one, the line says which flag is missing. */
    @Test
    void theDefaultDatasetAsksForItsFile() {
        Tokenpulse.Result result = tokenpulse.run(
                Tokenpulse.ROOT,
                Duration.ofSeconds(120),
                List.of(
                        "bench",
                        "--model",
                        "gpt2",
                        "--metrics-port",
                        "0",
                        "--data-dir",
                        files.resolve("data").toString()));

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(2);
        assertThat(result.stderrLines()).as(result.toString()).hasSize(1);
        assumeFalse(
                result.stderr().contains("dataset sharegpt is not supported yet"),
                "the ShareGPT dataset is being built (issue 'datasets', branch data); until it lands the line says 'not supported yet'");
        assertOneLineError(result, 2, "--dataset-path");
    }

    static void assertOneLineError(Tokenpulse.Result result, int exitCode, String expected) {
        assertThat(result.exitCode()).as(result.toString()).isEqualTo(exitCode);
        assertThat(result.stderrLines()).as(result.toString()).hasSize(1);
        assertThat(result.stderrLines().get(0))
                .as(result.toString())
                .contains(expected)
                .doesNotContain("Exception in thread");
        assertThat(result.stdoutLines())
                .as(result.toString())
                .allSatisfy(line -> assertThat(line)
                        .matches("Namespace\\(.*\\)|Run id: \\S+|Checking server health at .*|Still waiting for .*"
                                + "|Model not specified, fetching first model from server\\.\\.\\."));
    }
}
