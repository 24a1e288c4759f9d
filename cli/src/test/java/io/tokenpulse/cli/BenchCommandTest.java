package io.tokenpulse.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tokenpulse.cli.vllm.BenchNamespace;
import io.tokenpulse.cli.vllm.PythonNamespace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class BenchCommandTest {

    /** The Namespace line of vLLM's 20-minute run, read from testdata/vllm/benchmark-serving-20min-run.txt. */
    private static String seedNamespace() throws IOException {
        return Files.readAllLines(Path.of("..", "testdata", "vllm", "benchmark-serving-20min-run.txt")).stream()
                .filter(l -> l.startsWith("Namespace("))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void seed000ValuesParseAndPrintVllmsNamespaceLine() throws IOException {
        CommandLine cmd = TokenPulse.newCommandLine();
        CommandLine.ParseResult parsed = cmd.parseArgs(
                "bench",
                "--backend",
                "vllm",
                "--host",
                "127.0.0.1",
                "--port",
                "8000",
                "--endpoint",
                "/v1/completions",
                "--dataset-name",
                "sharegpt",
                "--model",
                "facebook/opt-6.7b",
                "--duration-minutes",
                "20",
                "--request-rate",
                "4",
                "--burstiness",
                "1.0",
                "--seed",
                "0",
                "--ignore-eos",
                "--percentile-metrics",
                "ttft,tpot,itl,e2el,token_latency",
                "--metric-percentiles",
                "99",
                "--temperature",
                "0.0");
        String line = PythonNamespace.format(parsed.subcommand().commandSpec(), BenchNamespace.ORDER);

        // vLLM's version that printed the 20-minute run had neither num_prompts next to duration_minutes nor the
        // custom and random-rerank datasets' options (later versions have them); ours has all.
        String vllmPart = line.replace("num_prompts=1000, ", "")
                .replace("custom_output_len=256, custom_skip_chat_template=False, ", "")
                .replace("random_batch_size=1, no_reranker=False, ", "");
        vllmPart = vllmPart.substring(0, vllmPart.indexOf("lora_modules=None") + "lora_modules=None".length()) + ")";
        assertThat(vllmPart).isEqualTo(seedNamespace());
    }

    @Test
    void currentVllmsFlagsFollowTheSeedsOnesInTheNamespaceLine() {
        CommandLine.ParseResult parsed = TokenPulse.newCommandLine().parseArgs("bench");
        String line = PythonNamespace.format(parsed.subcommand().commandSpec(), BenchNamespace.ORDER);
        assertThat(line)
                .contains("no_oversample=False, num_warmups=0, label=None, input_len=None, output_len=None,"
                        + " frequency_penalty=None, presence_penalty=None, repetition_penalty=None,"
                        + " extra_body=None, insecure=False, lora_assignment='random', ")
                .contains("trace_time_scale=1.0, asr_max_audio_len_sec=inf, asr_min_audio_len_sec=0.0,"
                        + " blazedit_min_distance=0.0, blazedit_max_distance=1.0, probe_request_rate=None, ");
    }

    @Test
    void secretsAreRedactedInTheNamespaceLine() {
        CommandLine.ParseResult parsed = TokenPulse.newCommandLine()
                .parseArgs(
                        "bench",
                        "--kafka-property",
                        "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule password=\"hunter2\";",
                        "--schema-registry-basic-auth",
                        "me:hunter2");
        String line = PythonNamespace.format(parsed.subcommand().commandSpec(), BenchNamespace.ORDER);
        assertThat(line).doesNotContain("hunter2").contains("'sasl.jaas.config': '<redacted>'");
    }

    @Test
    void badFlagValueIsAOneLineUsageErrorWithExitCode2() {
        CommandLine cmd = TokenPulse.newCommandLine();
        java.io.StringWriter err = new java.io.StringWriter();
        cmd.setErr(new java.io.PrintWriter(err));
        int code = cmd.execute("bench", "--num-prompts", "many");
        assertThat(code).isEqualTo(2);
        assertThat(err.toString().lines().findFirst().orElseThrow())
                .startsWith("bench: Invalid value for option '--num-prompts'");
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.CsvSource(
            delimiter = '|',
            value = {
                "--backend=openai-audio            | backend openai-audio needs an endpoint path ending in 'transcriptions'",
                "--lora-assignment=sticky          | --lora-assignment must be random or round-robin, got 'sticky'",
                "--tokenizer-mode=mistral          | --tokenizer-mode mistral needs mistral_common's tokenizer",
                "--tokenizer-mode=custom           | --tokenizer-mode custom takes the tokenizer --tokenizer names",
                "--tokenizer-mode=deepseek_v32     | unknown --tokenizer-mode deepseek_v32; use auto, hf, slow or custom",
                "--dataset-name=sharegpt           | the sharegpt dataset needs --dataset-path",
                "--dataset-name=hf                 | the hf dataset needs --dataset-path",
                "--backend=tgi                     | backend tgi needs an endpoint path ending in 'generate_stream'",
                "--goodput=ttfx:10                 | ttfx",
                "--percentile-metrics=ttft,foo     | unknown metric 'foo'",
                "--request-rate=-1                 | --request-rate",
                "--metadata=novalue                | write KEY=VALUE",
                "--num-warmups=-1                  | --num-warmups must be >= 0, got -1",
                "--extra-body=[1]                  | --extra-body must be a JSON object ({...}), got [1]",
                "--extra-body={x                   | --extra-body is not valid JSON",
                "--repetition-penalty=0            | --repetition-penalty must be > 0, got 0.0",
                "--label=a/b                       | --label must be a non-empty file name prefix without '/'",
                "--ready-check-timeout-sec=0       | readiness timeout must be > 0",
                "--metrics-port=70000              | --metrics-port must be in 0..65535, got 70000",
                "--window-size-ms=0                | --window-size-ms must be > 0 and --window-grace-ms >= 0, got 0 and 30000",
                "--spool-max-mb=-1                 | --spool-max-mb must be >= 0 MiB, got -1",
                "--spool-dir=/proc/tokenpulse      | --spool-dir /proc/tokenpulse cannot be created",
                "--chunk-records=each              | --chunk-records must be batched or per-event, got 'each'",
                "--chunk-batch-ms=-1               | --chunk-batch-ms must be in 0..10000 ms, got -1",
                "--server-metrics-interval-ms=5    | --server-metrics-interval-ms must be >= 100 ms, got 5",
                "--server-metrics=localhost:8000   | --server-metrics localhost:8000 is not an http(s) URL",
                "--scrape-url=ftp://host/metrics   | --scrape-url ftp://host/metrics is not an http(s) URL",
            })
    void unsupportedOrBadFlagsAreOneLineUsageErrors(String flag, String message) {
        assertOneLineUsageError(message, "bench", "--model", "gpt2", "--dataset-name", "random", flag);
    }

    @Test
    void windowFlagsWithAnExternalClusterAreRefusedBecauseTheAggregatorRunsElsewhere() {
        assertOneLineUsageError(
                "with --bootstrap-servers give them to 'tokenpulse aggregate'",
                "bench",
                "--model",
                "gpt2",
                "--dataset-name",
                "random",
                "--bootstrap-servers",
                "127.0.0.1:1",
                "--schema-registry-url",
                "http://127.0.0.1:1",
                "--window-size-ms",
                "2000");
    }

    @Test
    void prefixRepetitionWithFewerPromptsThanPrefixesIsRefusedBeforeTheRun() {
        assertOneLineUsageError(
                "--num-prompts 5 must be >= --prefix-repetition-num-prefixes 10",
                "bench",
                "--model",
                "gpt2",
                "--dataset-name",
                "prefix_repetition",
                "--num-prompts",
                "5");
    }

    @Test
    void aTraceCannotRunForADurationAndALineInAnotherLayoutIsNamed(@org.junit.jupiter.api.io.TempDir Path dir)
            throws IOException {
        Path trace = Files.write(
                dir.resolve("trace.jsonl"),
                java.util.List.of(
                        "{\"timestamp\": 0, \"input_length\": 30, \"output_length\": 3, \"hash_ids\": [0]}",
                        "{\"timestamp\": 5, \"input_len\": 30, \"output_length\": 3}"));
        assertOneLineUsageError(
                "--dataset-path " + trace + " is not a Mooncake trace: line 2: \"input_length\" is missing; expected a"
                        + " whole number >= 1",
                "bench",
                "--model",
                "gpt2",
                "--dataset-name",
                "trace",
                "--dataset-path",
                trace.toString());
        Files.write(trace, java.util.List.of("{\"timestamp\": 0, \"input_length\": 30, \"output_length\": 3}"));
        assertOneLineUsageError(
                "--duration-minutes cannot be combined with --dataset-name trace",
                "bench",
                "--model",
                "gpt2",
                "--dataset-name",
                "trace",
                "--dataset-path",
                trace.toString(),
                "--duration-minutes",
                "1");
    }

    @Test
    void anAgentTraceWithACycleIsOneLineBeforeTheRunAndCannotRunForADuration(@org.junit.jupiter.api.io.TempDir Path dir)
            throws IOException {
        Path trace = Files.write(
                dir.resolve("agents.jsonl"),
                java.util.List.of(
                        "{\"session_id\": \"s\", \"request_id\": \"a\", \"parent_ids\": [\"b\"], \"timestamp\": 0,"
                                + " \"input_length\": 30, \"output_length\": 3}",
                        "{\"session_id\": \"s\", \"request_id\": \"b\", \"parent_ids\": [\"a\"], \"input_length\": 30,"
                                + " \"output_length\": 3}"));
        assertOneLineUsageError(
                "--dataset-path " + trace + " is not an agent trace: line 1: parent_ids make a cycle in session \"s\""
                        + " (\"a\" -> \"b\" -> \"a\"); a request cannot wait for its own answer",
                "bench",
                "--model",
                "gpt2",
                "--dataset-name",
                "agent-trace",
                "--dataset-path",
                trace.toString());
        Files.write(
                trace,
                java.util.List.of(
                        "{\"session_id\": \"s\", \"timestamp\": 0, \"input_length\": 30, \"output_length\": 3}"));
        assertOneLineUsageError(
                "--duration-minutes cannot be combined with --dataset-name agent-trace",
                "bench",
                "--model",
                "gpt2",
                "--dataset-name",
                "agent-trace",
                "--dataset-path",
                trace.toString(),
                "--duration-minutes",
                "1");
    }

    @Test
    void anHfDatasetIdNotInTheLocalCacheSaysWhereItLooked() {
        assertOneLineUsageError(
                "dataset nobody/no-such-dataset is not in the local Hugging Face cache (looked in ",
                "bench",
                "--model",
                "gpt2",
                "--dataset-name",
                "hf",
                "--dataset-path",
                "nobody/no-such-dataset");
    }

    private static void assertOneLineUsageError(String message, String... args) {
        CommandLine cmd = TokenPulse.newCommandLine();
        java.io.StringWriter err = new java.io.StringWriter();
        cmd.setErr(new java.io.PrintWriter(err));
        java.io.PrintStream original = System.out;
        System.setOut(new java.io.PrintStream(new java.io.ByteArrayOutputStream()));
        int code;
        try {
            code = cmd.execute(args);
        } finally {
            System.setOut(original);
        }
        assertThat(code).as(err.toString()).isEqualTo(2);
        assertThat(err.toString().lines().toList()).hasSize(1);
        assertThat(err.toString()).startsWith("bench: ").contains(message);
    }
}
