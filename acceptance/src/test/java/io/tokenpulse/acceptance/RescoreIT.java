package io.tokenpulse.acceptance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./tokenpulse simulate} (default profile: continuous batching with chunked prefill, so a new
 * request's prefill stalls the others' decoding), {@code bench} against it on the embedded platform
 * ({@code --data-dir}), then {@code rescore} of the stored run: the issue #34 shape. vLLM's and
 * AIPerf's TTFT are equal (same first event); GuideLLM's TPOT exceeds vLLM's by exactly
 * (TTFT − TPOT)/N on the means (it divides the time from the send by N); vLLM's pooled ITL P99 is
 * above the per-request means' of GuideLLM and AIPerf. Then {@code compare} of GuideLLM's and AIPerf's
 * files with this run's numbers under their definitions beside the run: explained; one perturbed: not.
 */
class RescoreIT {
    private static final String RUN_ID = "acceptance-rescore";
    private static final int N = 32;

    @TempDir
    Path home;

    @TempDir
    Path logs;

    @TempDir
    Path work;

    @Test
    void aStoredRunScoredByEveryToolShowsWhereAndWhyTheyDiffer() throws Exception {
        Tokenpulse tokenpulse = new Tokenpulse(home, logs);
        String dataDir = work.resolve("data").toString();
        try (LocalSimulator simulator = LocalSimulator.start(tokenpulse, "--profile", "default")) {
            Tokenpulse.Result bench = tokenpulse.run(
                    Tokenpulse.ROOT,
                    Duration.ofMinutes(4),
                    simulator.bench(
                            "--model",
                            "facebook/opt-125m",
                            "--dataset-name",
                            "random",
                            "--random-input-len",
                            "256",
                            "--random-output-len",
                            Integer.toString(N),
                            "--ignore-eos",
                            "--num-prompts",
                            "48",
                            "--max-concurrency",
                            "16",
                            "--metrics-port",
                            "0",
                            "--disable-tqdm",
                            "--data-dir",
                            dataDir,
                            "--save-result",
                            "--save-detailed",
                            "--result-dir",
                            work.toString(),
                            "--result-filename",
                            "tokenpulse.json",
                            "--run-id",
                            RUN_ID));
            assertThat(bench.exitCode()).as(bench.toString()).isZero();
        }

        Path json = work.resolve("rescore.json");
        Tokenpulse.Result rescore = tokenpulse.run(
                Tokenpulse.ROOT,
                Duration.ofMinutes(2),
                List.of(
                        "rescore",
                        "--run-id",
                        RUN_ID,
                        "--data-dir",
                        dataDir,
                        "--format",
                        "json",
                        "--output",
                        json.toString()));
        assertThat(rescore.exitCode()).as(rescore.toString()).isZero();
        JsonNode rows = new ObjectMapper().readTree(json.toFile()).get("rows");
        for (String stat : List.of("ttft_mean", "ttft_median", "ttft_p99")) {
            assertThat(value(rows, stat, "aiperf")).as(stat).isCloseTo(value(rows, stat, "vllm"), within(1e-9));
        }
        double ttft = value(rows, "ttft_mean", "vllm");
        double tpot = value(rows, "tpot_mean", "vllm");
        assertThat(value(rows, "tpot_mean", "guidellm") - tpot)
                .as("GuideLLM's TPOT = (TTFT + (N - 1) TPOT)/N")
                .isCloseTo((ttft - tpot) / N, within(1e-6));
        assertThat(value(rows, "itl_p99", "vllm"))
                .isGreaterThan(value(rows, "itl_p99", "guidellm"))
                .isGreaterThan(value(rows, "itl_p99", "aiperf"));
        assertThat(rows.get(7).get("key").asText()).isEqualTo("tpot_median");
        assertThat(rows.get(7).get("values").get("aiperf").isNull())
                .as("AIPerf reports no TPOT")
                .isTrue();

        Tokenpulse.Result markdown = tokenpulse.run(
                Tokenpulse.ROOT,
                Duration.ofMinutes(2),
                List.of("rescore", "--run-id", RUN_ID, "--data-dir", dataDir, "--as", "vllm,guidellm,aiperf"));
        assertThat(markdown.exitCode()).as(markdown.toString()).isZero();
        assertThat(markdown.stdoutLines())
                .contains("| metric | vllm | guidellm | aiperf |")
                .anySatisfy(line -> assertThat(line)
                        .startsWith("- **TPOT mean (ms)**: guidellm ")
                        .contains("TTFT included"))
                .anySatisfy(line ->
                        assertThat(line).startsWith("- **ITL P99 (ms)**: vllm ").contains("pooled over all requests"));

        Tokenpulse.Result unknown = tokenpulse.run(
                Tokenpulse.ROOT,
                Duration.ofMinutes(1),
                List.of("rescore", "--run-id", RUN_ID, "--data-dir", dataDir, "--as", "vllm,genai-perf"));
        assertThat(unknown.exitCode()).as(unknown.toString()).isEqualTo(2);
        assertThat(unknown.stderr().strip())
                .endsWith("unknown tool 'genai-perf' in --as; known: vllm,guidellm,aiperf,sglang,inference-perf")
                .doesNotContain("\n");

        compareSaysWhichDifferencesTheDefinitionsExplain(tokenpulse, dataDir, rows);
    }

    /**
     * GuideLLM's and AIPerf's files holding this run's numbers under their definitions (what they would
     * report for the same requests) are explained by the definitions; a GuideLLM file whose TTFT is
     * 30 % higher is not. Against the stored run, and against bench's --save-detailed file.
     */
    private void compareSaysWhichDifferencesTheDefinitionsExplain(Tokenpulse tokenpulse, String dataDir, JsonNode rows)
            throws Exception {
        ObjectMapper json = new ObjectMapper();
        Path guidellm = work.resolve("benchmarks.json");
        json.writeValue(guidellm.toFile(), guidellmFile(json, rows, 1.0));
        Path perturbed = work.resolve("perturbed.json");
        json.writeValue(perturbed.toFile(), guidellmFile(json, rows, 1.3));
        Path aiperf = work.resolve("profile_export_aiperf.json");
        json.writeValue(aiperf.toFile(), aiperfFile(json, rows));

        Tokenpulse.Result compare = tokenpulse.run(
                Tokenpulse.ROOT,
                Duration.ofMinutes(2),
                List.of(
                        "compare",
                        guidellm.toString(),
                        aiperf.toString(),
                        perturbed.toString(),
                        "--run-id",
                        RUN_ID,
                        "--data-dir",
                        dataDir));
        assertThat(compare.exitCode()).as(compare.toString()).isZero();
        assertThat(compare.stdoutLines())
                .contains("Which differences the definitions explain (against run " + RUN_ID
                        + ", within 5 %; docs/rescore.md):")
                .anySatisfy(line -> assertThat(line)
                        .startsWith("- benchmarks, Mean TPOT (ms): ")
                        .contains("explained by the definitions")
                        .contains("TTFT included"))
                .anySatisfy(line -> assertThat(line)
                        .startsWith("- perturbed, Mean TTFT (ms): ")
                        .contains("not explained by definitions (different run or server state: 30.0 % apart under"
                                + " the same definition"))
                .noneSatisfy(
                        line -> assertThat(line).startsWith("- benchmarks, ").contains("not explained"))
                .noneSatisfy(line ->
                        assertThat(line).startsWith("- profile_export_aiperf, ").contains("not explained"));

        // bench's own file with the per-request lists stands in for the stored run: latencies only
        Tokenpulse.Result fromFile = tokenpulse.run(
                Tokenpulse.ROOT,
                Duration.ofMinutes(1),
                List.of(
                        "compare",
                        work.resolve("tokenpulse.json").toString(),
                        guidellm.toString(),
                        perturbed.toString()));
        assertThat(fromFile.exitCode()).as(fromFile.toString()).isZero();
        assertThat(fromFile.stdoutLines())
                .contains("Which differences the definitions explain (against tokenpulse.json, within 5 %;"
                        + " docs/rescore.md):")
                .anySatisfy(line -> assertThat(line)
                        .startsWith("- benchmarks, Mean TPOT (ms): ")
                        .contains("explained by the definitions"))
                .anySatisfy(line -> assertThat(line)
                        .startsWith("- perturbed, Mean TTFT (ms): ")
                        .contains("not explained by definitions"))
                .noneSatisfy(line -> assertThat(line).contains("Throughput").contains("explained"));
    }

    /** A GuideLLM benchmarks.json as compare reads it, with GuideLLM's numbers for this run, latencies times {@code factor}. */
    private static JsonNode guidellmFile(ObjectMapper json, JsonNode rows, double factor) {
        ObjectNode metrics = json.createObjectNode();
        metrics.putObject("request_totals").put("successful", value(rows, "successful", "guidellm"));
        metrics.putObject("prompt_token_count")
                .putObject("successful")
                .put("total_sum", value(rows, "input_tokens", "guidellm"));
        metrics.putObject("output_token_count")
                .putObject("successful")
                .put("total_sum", value(rows, "output_tokens", "guidellm"));
        metrics.putObject("requests_per_second")
                .putObject("successful")
                .put("mean", value(rows, "request_throughput", "guidellm"));
        metrics.putObject("output_tokens_per_second")
                .putObject("successful")
                .put("mean", value(rows, "output_throughput", "guidellm"));
        for (String[] metric : new String[][] {
            {"time_to_first_token_ms", "ttft"}, {"time_per_output_token_ms", "tpot"}, {"inter_token_latency_ms", "itl"}
        }) {
            ObjectNode stats = metrics.putObject(metric[0]).putObject("successful");
            stats.put("mean", factor * value(rows, metric[1] + "_mean", "guidellm"));
            stats.put("median", factor * value(rows, metric[1] + "_median", "guidellm"));
            stats.putObject("percentiles").put("p99", factor * value(rows, metric[1] + "_p99", "guidellm"));
        }
        ObjectNode benchmark = json.createObjectNode();
        benchmark.put("duration", value(rows, "duration", "guidellm"));
        benchmark.set("metrics", metrics);
        ObjectNode file = json.createObjectNode();
        file.putArray("benchmarks").add(benchmark);
        return file;
    }

    /** An AIPerf profile_export_aiperf.json with AIPerf's numbers for this run (its ITL is shown as TPOT). */
    private static JsonNode aiperfFile(ObjectMapper json, JsonNode rows) {
        ObjectNode file = json.createObjectNode();
        file.putObject("request_count").put("unit", "requests").put("avg", value(rows, "successful", "aiperf"));
        file.putObject("benchmark_duration").put("unit", "sec").put("avg", value(rows, "duration", "aiperf"));
        file.putObject("total_isl").put("unit", "tokens").put("avg", value(rows, "input_tokens", "aiperf"));
        file.putObject("total_osl").put("unit", "tokens").put("avg", value(rows, "output_tokens", "aiperf"));
        file.putObject("request_throughput")
                .put("unit", "requests/sec")
                .put("avg", value(rows, "request_throughput", "aiperf"));
        file.putObject("output_token_throughput")
                .put("unit", "tokens/sec")
                .put("avg", value(rows, "output_throughput", "aiperf"));
        for (String[] metric : new String[][] {{"time_to_first_token", "ttft"}, {"inter_token_latency", "itl"}}) {
            file.putObject(metric[0])
                    .put("unit", "ms")
                    .put("avg", value(rows, metric[1] + "_mean", "aiperf"))
                    .put("p50", value(rows, metric[1] + "_median", "aiperf"))
                    .put("p99", value(rows, metric[1] + "_p99", "aiperf"));
        }
        return file;
    }

    private static double value(JsonNode rows, String key, String tool) {
        for (JsonNode row : rows) {
            if (row.get("key").asText().equals(key)) {
                return row.get("values").get(tool).asDouble();
            }
        }
        throw new AssertionError("no row " + key);
    }
}
