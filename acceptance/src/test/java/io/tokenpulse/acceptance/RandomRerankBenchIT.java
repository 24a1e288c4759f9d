package io.tokenpulse.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * vLLM's {@code random-rerank} dataset through the shipped {@code ./tokenpulse}: {@code bench --simulate
 * --backend vllm-rerank} sends one query with {@code --random-batch-size} documents per request, so
 * {@code --num-prompts} documents make {@code ceil(num-prompts / batch size)} requests, each counted by
 * the server's usage; vLLM's pooling block and keys at the end. The dataset with a generation backend,
 * or with {@code --no-reranker} and one document per request, is one line before the run.
 */
class RandomRerankBenchIT {

    @TempDir
    static Path home;

    @TempDir
    static Path logs;

    @TempDir
    static Path work;

    private static List<String> bench(String backend, String endpoint, String... flags) {
        List<String> args = new ArrayList<>(List.of(
                "bench",
                "--simulate",
                "--simulate-profile",
                "deterministic",
                "--backend",
                backend,
                "--endpoint",
                endpoint,
                "--model",
                "gpt2",
                "--dataset-name",
                "random-rerank",
                "--random-input-len",
                "64",
                "--metrics-port",
                "0",
                "--disable-tqdm",
                "--data-dir",
                work.resolve("data-" + backend).toString()));
        args.addAll(List.of(flags));
        return args;
    }

    @Test
    void aRerankRunSendsOneQueryWithItsBatchOfDocumentsPerRequest() throws Exception {
        Tokenpulse tokenpulse = new Tokenpulse(home, logs);
        Tokenpulse.Result run = tokenpulse.run(
                Tokenpulse.ROOT,
                Duration.ofMinutes(3),
                bench(
                        "vllm-rerank",
                        "/v1/rerank",
                        "--random-batch-size",
                        "2",
                        "--num-prompts",
                        "7",
                        "--save-result",
                        "--save-detailed",
                        "--result-dir",
                        work.resolve("results").toString(),
                        "--result-filename",
                        "rerank.json"));

        assertThat(run.exitCode()).as(run.toString()).isZero();
        run.assertQuietStderr();
        assertThat(run.stdoutLines().get(0))
                .contains("dataset_name='random-rerank'", "random_batch_size=2", "no_reranker=False");
        // 7 documents in batches of 2: 4 requests
        assertThat(run.stdoutLines()).anyMatch(line -> line.matches("Successful requests: +4 *"));
        assertThat(run.stdoutLines()).anyMatch(line -> line.matches("Failed requests: +0 *"));
        assertThat(run.stdoutLines()).anyMatch(line -> line.startsWith("Mean E2EL (ms):"));
        assertThat(run.stdoutLines()).noneMatch(line -> line.startsWith("Mean TTFT"));

        JsonNode result = new ObjectMapper()
                .readTree(work.resolve("results").resolve("rerank.json").toFile());
        assertThat(result.get("backend").asText()).isEqualTo("vllm-rerank");
        assertThat(result.get("completed").asInt()).isEqualTo(4);
        assertThat(result.get("total_output_tokens").asLong()).isZero();
        // query 64/2 - 1 = 31 tokens, documents 64 - 31 - 1 = 32; the simulator's usage counts each
        // (query, document) pair's tokens, without vLLM's dataset's separator token
        List<Integer> inputLens = new ArrayList<>();
        result.get("input_lens").forEach(len -> inputLens.add(len.asInt()));
        assertThat(inputLens).containsExactlyInAnyOrder(126, 126, 126, 63);
        assertThat(result.get("total_input_tokens").asLong()).isEqualTo(441);
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "openai, /v1/completions, --random-batch-size, 1, only a pooling backend takes",
        "vllm-rerank, /v1/rerank, --no-reranker, '', --random-batch-size to 2 or more",
    })
    void aCombinationVllmCannotRunIsOneLineBeforeTheRun(
            String backend, String endpoint, String flag, String value, String message) {
        Tokenpulse tokenpulse = new Tokenpulse(home, logs);
        List<String> args = bench(backend, endpoint, "--num-prompts", "4", flag);
        if (!value.isEmpty()) {
            args.add(value);
        }
        Tokenpulse.Result run = tokenpulse.run(Tokenpulse.ROOT, Duration.ofMinutes(2), args);

        assertThat(run.exitCode()).as(run.toString()).isNotZero();
        assertThat(run.stderrLines()).as(run.toString()).hasSize(1);
        assertThat(run.stderrLines().get(0)).contains(message).doesNotContain("Exception");
        assertThat(run.stdoutLines()).noneMatch(line -> line.contains("Serving Benchmark Result"));
    }
}
