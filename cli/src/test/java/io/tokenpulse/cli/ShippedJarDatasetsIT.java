package io.tokenpulse.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tokenpulse.tokenizers.ChatMessage;
import io.tokenpulse.tokenizers.Tokenizer;
import io.tokenpulse.tokenizers.TokenizerLoader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file datasets through the shipped jar ({@code target/tokenpulse.jar}, built by {@code package}
 * before Failsafe runs) in its own JVM as a user starts it: what the jar leaves out (a library only
 * the tests have, a chat template, a Parquet codec's native library) or its logging configuration shows here
 * and nowhere in-process. One {@code sweep} with a row of {@code --bench-params} per dataset runs
 * them all on one embedded broker and aggregator: the same bench code per point, a sixth of the
 * start-ups.
 */
class ShippedJarDatasetsIT {

    private static final Path JAR = Path.of("target", "tokenpulse.jar").toAbsolutePath();
    private static final Path QWEN3 =
            Path.of("..", "testdata", "tokenizers", "qwen3").toAbsolutePath();
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void everyFileDatasetRunsFromTheJarAndSaysWhatItReadDroppedAndSampled() throws Exception {
        Path custom = Files.write(
                dir.resolve("prompts.jsonl"),
                List.of(
                        "{\"prompt\": \"What is the capital of India?\", \"output_tokens\": 4}",
                        "{\"prompt\": \"What is the capital of Iran?\", \"output_tokens\": 9}"));
        Path sharegpt = Files.writeString(dir.resolve("sharegpt.json"), """
        [{"conversations": [{"from": "human", "value": "Explain the theory of relativity in simple terms."},
                            {"from": "gpt", "value": "The laws of physics are the same for everyone moving steadily."}]},
         {"conversations": [{"from": "human", "value": "Hi"}, {"from": "gpt", "value": "Hello, how can I help you today?"}]},
         {"conversations": [{"from": "human", "value": "Only one turn here."}]}]
        """);
        Path burstgpt = Files.writeString(dir.resolve("burstgpt.csv"), """
        Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type
        5,ChatGPT,472,18,490,Conversation log
        45,GPT-4,12,3,15,Conversation log
        118,GPT-4,57,7,64,API log
        200,GPT-4,999,0,999,Conversation log
        301,GPT-4,230,5,235,Conversation log
        """);
        Path trace = Files.write(
                dir.resolve("trace.jsonl"),
                List.of(
                        "{\"timestamp\": 400, \"input_length\": 700, \"output_length\": 3, \"hash_ids\": [7, 8]}",
                        "{\"timestamp\": 0, \"input_length\": 600, \"output_length\": 5, \"hash_ids\": [7, 9]}",
                        "{\"timestamp\": 900, \"input_length\": 90, \"output_length\": 0, \"hash_ids\": [3]}",
                        "{\"timestamp\": 1000, \"input_length\": 50, \"output_length\": 2, \"hash_ids\": [4]}"));
        Path gsm8k =
                dir.resolve("hf-home/hub/datasets--openai--gsm8k/snapshots/e53f048856ff4f594e959d75785d2c2d37b678ee");
        Files.createDirectories(gsm8k.resolve("main"));
        try (java.sql.Connection duckdb =
                        new org.duckdb.DuckDBDriver().connect("jdbc:duckdb:", new java.util.Properties());
                java.sql.Statement sql = duckdb.createStatement()) {
            sql.execute("COPY (SELECT * FROM (VALUES ('What is 2 + 3?', '5'), ('What is 7 * 6?', '42'),"
                    + " ('What is 9 - 4?', '5')) t(question, answer)) TO '"
                    + gsm8k.resolve("main/test-00000-of-00001.parquet") + "' (FORMAT parquet)");
        }
        Map<String, Map<String, Object>> rows = new LinkedHashMap<>();
        rows.put(
                "custom",
                Map.of(
                        "tokenizer",
                        QWEN3.toString(),
                        "dataset_name",
                        "custom",
                        "dataset_path",
                        custom.toString(),
                        "num_prompts",
                        2,
                        "custom_output_len",
                        -1));
        rows.put("sharegpt", Map.of("dataset_path", sharegpt.toString(), "num_prompts", 3));
        rows.put("burstgpt", Map.of("dataset_name", "burstgpt", "dataset_path", burstgpt.toString(), "num_prompts", 3));
        rows.put(
                "prefix",
                Map.of(
                        "dataset_name", "prefix_repetition",
                        "prefix_repetition_prefix_len", 16,
                        "prefix_repetition_suffix_len", 8,
                        "prefix_repetition_num_prefixes", 2,
                        "prefix_repetition_output_len", 5,
                        "num_prompts", 5));
        rows.put(
                "trace",
                Map.of(
                        "dataset_name",
                        "trace",
                        "dataset_path",
                        trace.toString(),
                        "trace_time_scale",
                        0.5,
                        "num_prompts",
                        10));
        rows.put(
                "hf",
                Map.of(
                        "tokenizer",
                        QWEN3.toString(),
                        "dataset_name",
                        "hf",
                        "dataset_path",
                        "openai/gsm8k",
                        "hf_output_len",
                        6,
                        "num_prompts",
                        3));
        Path params = dir.resolve("bench-params.json");
        JSON.writeValue(params.toFile(), rows);
        Path sweepDir = dir.resolve("sweep");

        Run run = sweep(
                "--bench-params",
                params.toString(),
                "--simulate",
                "--simulate-profile",
                "deterministic",
                "--request-rate",
                "50",
                "--ignore-eos",
                "--disable-tqdm",
                "--data-dir",
                dir.resolve("platform").toString(),
                "--metrics-port",
                "0",
                "--output-dir",
                sweepDir.toString());

        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        Map<String, JsonNode> results = new LinkedHashMap<>();
        for (JsonNode point :
                JSON.readTree(sweepDir.resolve("sweep.json").toFile()).get("points")) {
            results.put(
                    point.get("params").get("bench_setting").asText(),
                    JSON.readTree(sweepDir.resolve(point.get("result").asText()).toFile()));
        }
        assertThat(results).containsOnlyKeys(rows.keySet());
        SoftAssertions.assertSoftly(soft -> {
            // custom: Qwen3's chat template from the jar; Qwen3 adds no special tokens to a sequence.
            Tokenizer qwen3 = new TokenizerLoader(Path.of("no-hub-cache")).load(QWEN3.toString());
            soft.assertThat(run.err()).contains("custom: " + custom + ": 2 prompts, none dropped; sampled 2");
            soft.assertThat(results.get("custom").get("completed").asInt()).isEqualTo(2);
            soft.assertThat(results.get("custom").get("total_input_tokens").asInt())
                    .isEqualTo(List.of("What is the capital of India?", "What is the capital of Iran?").stream()
                            .mapToInt(prompt ->
                                    qwen3.countTokens(qwen3.applyChatTemplate(List.of(ChatMessage.user(prompt)), true)))
                            .sum());
            soft.assertThat(results.get("custom").get("total_output_tokens").asInt())
                    .isEqualTo(4 + 9);

            // sharegpt, the default dataset, says what it dropped and that it oversampled.
            soft.assertThat(run.err())
                    .contains("sharegpt: " + sharegpt + ": 3 entries, 1 with fewer than 2 turns dropped; of 2"
                            + " tokenized, dropped: 1 prompt under 4 tokens; sampled 1; only 1 of --num-prompts 3,"
                            + " oversampled requests to reach 3 total samples");
            soft.assertThat(results.get("sharegpt").get("completed").asInt()).isEqualTo(3);

            // burstgpt: the simulator's model (OPT) adds one </s> to every prompt it counts.
            soft.assertThat(run.err())
                    .contains("burstgpt: " + burstgpt + ": 5 rows, 2 dropped (not model GPT-4 or 0 response"
                            + " tokens); sampled 3 of 3 without replacement");
            soft.assertThat(results.get("burstgpt").get("total_input_tokens").asInt())
                    .isEqualTo(12 + 57 + 230 + 3);
            soft.assertThat(results.get("burstgpt").get("total_output_tokens").asInt())
                    .isEqualTo(3 + 7 + 5);

            soft.assertThat(run.err())
                    .contains("prefix_repetition: 2 prefixes of 16 tokens, 2 prompts each with a suffix of 8 tokens:"
                            + " 4 requests, shuffled with --seed; --num-prompts 5 is not a multiple");
            soft.assertThat(results.get("prefix").get("completed").asInt()).isEqualTo(4);
            soft.assertThat(results.get("prefix").get("total_output_tokens").asInt())
                    .isEqualTo(4 * 5);

            soft.assertThat(run.out())
                    .contains("Trace replay: each request is sent at its trace time scaled by --trace-time-scale")
                    .contains("Trace send lateness (ms): median ");
            soft.assertThat(run.err())
                    .contains("timestamps are out of order (line 2 at 0 ms comes after a later one); sorted by"
                            + " timestamp")
                    .contains("trace: " + trace + ": 4 requests, 1 dropped (output_length 0); sampled 3, the first"
                            + " by timestamp, over 1.000 s of trace time, scaled by 0.5 (--trace-time-scale); 4"
                            + " distinct 512-token blocks, 1 uses of a block already used; only 3 of --num-prompts"
                            + " 10");
            soft.assertThat(results.get("trace").get("total_input_tokens").asInt())
                    .isEqualTo(700 + 600 + 50);
            soft.assertThat(results.get("trace").get("total_output_tokens").asInt())
                    .isEqualTo(3 + 5 + 2);
            // The last request is due 0.5 s after the first.
            soft.assertThat(results.get("trace").get("duration").asDouble()).isGreaterThan(0.5);

            // hf: GSM8K's Parquet file (written by DuckDB) in the hub cache, read by parquet-java from the jar.
            soft.assertThat(run.err())
                    .contains("hf: openai/gsm8k (" + gsm8k + "): GSM8K layout, split test, subset main, 1 file: 3"
                            + " rows, 0 with fewer than 2 turns dropped; no length filter (output length 6);"
                            + " sampled 3");
            soft.assertThat(results.get("hf").get("total_output_tokens").asInt())
                    .isEqualTo(3 * 6);
        });
    }

    private record Run(int exitCode, String out, String err) {}

    private Run sweep(String... flags) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", JAR.toString(), "sweep"));
        command.addAll(List.of(flags));
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        // the hf dataset looks for dataset ids in $HF_HOME/hub, here the test's own
        builder.environment().put("HF_HOME", dir.resolve("hf-home").toString());
        builder.environment().remove("HF_HUB_CACHE");
        builder.environment().remove("HF_DATASETS_CACHE");
        Process process = builder.start();
        if (!process.waitFor(4, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("sweep did not finish in 4 minutes: " + Files.readString(out));
        }
        return new Run(
                process.exitValue(),
                Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }
}
