package io.tokenpulse.acceptance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
 * above the per-request means' of GuideLLM and AIPerf.
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
