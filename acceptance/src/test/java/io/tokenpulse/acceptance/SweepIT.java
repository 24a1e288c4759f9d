package io.tokenpulse.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./tokenpulse sweep} as the README shows it: two server settings of {@code ./tokenpulse
 * simulate} (started and stopped by {@code --serve-cmd}, chunked prefill on and off) times two
 * request counts, then {@code --resume} of the finished sweep, which runs nothing again.
 */
class SweepIT {

    @TempDir
    Path home;

    @TempDir
    Path logs;

    @TempDir
    Path work;

    @Test
    void serveSettingsTimesListedFlagsThenResumeSkipsWhatIsDone() throws Exception {
        Tokenpulse tokenpulse = new Tokenpulse(home, logs);
        int port = FreePorts.one();
        Path serveParams = work.resolve("serve.json");
        Files.writeString(serveParams, "{\"chunked\": {}, \"no-chunked\": {\"no_chunked_prefill\": true}}");
        Path dir = work.resolve("sweep");
        List<String> args = new ArrayList<>(List.of(
                "sweep",
                "--serve-cmd",
                Tokenpulse.LAUNCHER + " simulate --port " + port + " --profile deterministic --speedup 20 --model "
                        + BenchAgainstSimulatorIT.QWEN + " --tokenizer " + Tokenpulse.QWEN3,
                "--serve-params",
                serveParams.toString(),
                "--base-url",
                "http://127.0.0.1:" + port,
                "--tokenizer",
                Tokenpulse.QWEN3.toString(),
                "--dataset-name",
                "random",
                "--random-input-len",
                "16",
                "--random-output-len",
                "4",
                "--ignore-eos",
                "--num-prompts",
                "2,3",
                "--disable-tqdm",
                "--metrics-port",
                "0",
                "--data-dir",
                work.resolve("data").toString()));

        List<String> first = new ArrayList<>(args);
        first.addAll(List.of("--output-dir", dir.toString()));
        Tokenpulse.Result sweep = tokenpulse.run(Tokenpulse.ROOT, Duration.ofMinutes(4), first);

        assertThat(sweep.exitCode()).as(sweep.toString()).isZero();
        sweep.assertQuietStderr();
        assertThat(sweep.stdoutLines())
                .as(sweep.toString())
                .filteredOn(line -> line.startsWith("["))
                .containsExactly(
                        line(sweep, "[1/4] chunked,num_prompts=2: done in "),
                        line(sweep, "[2/4] chunked,num_prompts=3: done in "),
                        line(sweep, "[3/4] no-chunked,num_prompts=2: done in "),
                        line(sweep, "[4/4] no-chunked,num_prompts=3: done in "));
        assertThat(Files.readString(dir.resolve("serve-2.log"))).contains("Simulator serving");
        JsonNode points =
                new ObjectMapper().readTree(dir.resolve("sweep.json").toFile()).get("points");
        assertThat(points).hasSize(4);
        for (JsonNode point : points) {
            JsonNode result = new ObjectMapper()
                    .readTree(dir.resolve(point.get("result").asText()).toFile());
            assertThat(result.get("completed").asInt())
                    .isEqualTo(point.get("params").get("num_prompts").asInt());
        }
        assertThat(points.get(2).get("params").get("no_chunked_prefill").asText())
                .isEqualTo("true");
        String summary = Files.readString(dir.resolve("summary.md"));

        assertThat(sweep.stdout().split("Namespace\\(backend='vllm'", -1))
                .as("a Namespace line per point")
                .hasSize(5);
        assertThat(dir.resolve("sweep-pareto.png")).isNotEmptyFile();

        // the flags come from sweep.json
        Tokenpulse.Result resumed =
                tokenpulse.run(Tokenpulse.ROOT, Duration.ofMinutes(2), List.of("sweep", "--resume", dir.toString()));

        assertThat(resumed.exitCode()).as(resumed.toString()).isZero();
        assertThat(resumed.stdout())
                .contains("[1/4] chunked,num_prompts=2: done earlier, skipped")
                .contains("[4/4] no-chunked,num_prompts=3: done earlier, skipped")
                .doesNotContain("Serving Benchmark Result")
                .doesNotContain("Starting server");
        assertThat(Files.readString(dir.resolve("summary.md"))).isEqualTo(summary);

        Tokenpulse.Result noSlo =
                tokenpulse.run(Tokenpulse.ROOT, Duration.ofMinutes(1), List.of("sweep", "--search", "rate"));

        assertThat(noSlo.exitCode()).isEqualTo(2);
        assertThat(noSlo.stderr().strip())
                .isEqualTo("sweep: --search needs --slo, e.g. --slo ttft:2000,itl:100,failures:0.01");
    }

    private static String line(Tokenpulse.Result run, String prefix) {
        return run.stdoutLines().stream()
                .filter(l -> l.startsWith(prefix))
                .findFirst()
                .orElse(prefix + "(missing)");
    }
}
