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
 * Issue 33's client-side request metrics through the shipped jar: {@code simulate
 * --enable-prompt-tokens-details} as its own process, then one {@code bench} of vLLM's
 * {@code prefix_repetition} dataset under {@code --max-concurrency 2} with probes. Checks vLLM's client
 * queue keys and their relation to E2EL, the prefix-cache hit rate from {@code cached_tokens}, probes
 * counted apart from the run, and the steady plateau inside the run.
 */
class RequestMetricsIT {
    private static final int PROMPTS = 40;

    @TempDir
    Path home;

    @TempDir
    Path logs;

    @TempDir
    Path work;

    @Test
    void clientQueuePrefixCacheProbesAndSteadyStateReachTheBlockAndTheFile() throws Exception {
        Tokenpulse tokenpulse = new Tokenpulse(home, logs);
        Tokenpulse.Result bench;
        try (LocalSimulator simulator =
                LocalSimulator.start(tokenpulse, "--profile", "default", "--enable-prompt-tokens-details")) {
            bench = tokenpulse.run(
                    Tokenpulse.ROOT,
                    Duration.ofMinutes(4),
                    simulator.bench(
                            "--model",
                            "facebook/opt-125m",
                            "--dataset-name",
                            "prefix_repetition",
                            "--prefix-repetition-num-prefixes",
                            "2",
                            "--prefix-repetition-prefix-len",
                            "256",
                            "--prefix-repetition-suffix-len",
                            "16",
                            "--prefix-repetition-output-len",
                            "32",
                            "--num-prompts",
                            Integer.toString(PROMPTS),
                            "--max-concurrency",
                            "2",
                            "--request-rate",
                            "100",
                            "--probe-request-rate",
                            "20",
                            "--vllm-block",
                            "current",
                            "--percentile-metrics",
                            "ttft,e2el,client_queue_time,e2el_including_client_queue",
                            "--metrics-port",
                            "0",
                            "--disable-tqdm",
                            "--data-dir",
                            work.resolve("data").toString(),
                            "--save-result",
                            "--result-dir",
                            work.toString(),
                            "--result-filename",
                            "result.json"));
        }
        assertThat(bench.exitCode()).as(bench.toString()).isZero();
        bench.assertNoStackTrace();
        assertThat(bench.stdoutLines())
                .as(bench.toString())
                .contains("----------------Client Queue Time-----------------")
                .anySatisfy(line -> assertThat(line).startsWith("Mean Client Queue Time (ms):"))
                .anySatisfy(line -> assertThat(line).startsWith("P99 E2EL incl. Client Queue (ms):"))
                .anySatisfy(line -> assertThat(line).startsWith("Prefix cache hit rate (%):"))
                .contains("================= Probe Requests =================")
                // current vLLM's own probe lines, inside its block
                .contains("------------------Probe Requests------------------")
                .anySatisfy(line -> assertThat(line).startsWith("P99 probe E2EL (ms):"))
                .contains("================== Steady State ==================");

        JsonNode r = new ObjectMapper().readTree(work.resolve("result.json").toFile());
        // vLLM's keys; every request waited for one of 2 slots at 100 req/s
        assertThat(r.get("mean_client_queue_time_ms").asDouble()).isPositive();
        assertThat(r.get("p99_client_queue_time_ms").asDouble())
                .isGreaterThanOrEqualTo(r.get("median_client_queue_time_ms").asDouble());
        double e2el = r.get("mean_e2el_ms").asDouble();
        double including = r.get("mean_e2el_including_client_queue_ms").asDouble();
        assertThat(including).isGreaterThan(e2el);
        assertThat(including - e2el)
                .as("per request: E2EL including client queue = client queue time + E2EL")
                .isCloseTo(r.get("mean_client_queue_time_ms").asDouble(), within(1e-6));
        assertThat(r.get("p99_e2el_including_client_queue_ms").asDouble())
                .isGreaterThanOrEqualTo(r.get("p99_e2el_ms").asDouble());

        // the prefixes repeat, so later prompts hit the simulator's prefix blocks
        assertThat(r.get("total_cached_tokens").asLong()).isPositive();
        assertThat(r.get("prefix_cache_hit_rate").asDouble()).isStrictlyBetween(0.0, 1.0);

        // probes are counted apart: the run's counts hold only its prompts
        assertThat(r.get("num_prompts").asInt()).isEqualTo(PROMPTS);
        assertThat(r.get("completed").asLong() + r.get("failed").asLong()).isEqualTo(PROMPTS);
        JsonNode probes = r.get("probes");
        assertThat(probes.get("completed").asLong()).isPositive();
        assertThat(probes.get("mean_ttft_ms").asDouble()).isPositive();
        assertThat(probes.get("mean_e2el_ms").asDouble())
                .isGreaterThanOrEqualTo(probes.get("mean_ttft_ms").asDouble());
        // and current vLLM's flat probe keys, from the same probes
        assertThat(r.get("probe_completed").asLong())
                .isEqualTo(probes.get("completed").asLong());
        assertThat(r.get("probe_median_e2el_ms").asDouble())
                .isEqualTo(probes.get("median_e2el_ms").asDouble());
        assertThat(r.get("probe_p99_e2el_ms").asDouble())
                .isBetween(
                        r.get("probe_median_e2el_ms").asDouble(),
                        r.get("probe_max_e2el_ms").asDouble());
        assertThat(r.get("endpoint_type").asText()).isEqualTo(r.get("backend").asText());

        JsonNode steady = r.get("steady_state");
        assertThat(steady).as(r.toString()).isNotNull();
        assertThat(steady.get("start_s").asDouble())
                .isLessThan(steady.get("end_s").asDouble());
        assertThat(steady.get("end_s").asDouble())
                .isLessThanOrEqualTo(r.get("duration").asDouble());
        assertThat(steady.get("plateau_in_flight").asLong()).isEqualTo(2);
        assertThat(steady.get("completed").asLong())
                .isBetween(1L, r.get("completed").asLong() - 1);
        assertThat(steady.get("request_throughput").asDouble()).isPositive();
        assertThat(steady.has("mean_ttft_ms")).isTrue();
    }

    /**
     * Every prompt is sent at once (no rate, no limit) and streams 1 s: the last dispatch is at the start, so
     * probes that stopped there would be none; they go on through the drain, at 20/s, until the prompts ended.
     */
    @Test
    void probesGoOnThroughTheDrainUntilTheRunsRequestsEnded() throws Exception {
        Tokenpulse tokenpulse = new Tokenpulse(home, logs);
        Tokenpulse.Result bench;
        try (Tokenpulse.Background simulator = tokenpulse.start(
                "simulate",
                "--port",
                "0",
                "--model",
                "gpt2",
                "--profile",
                "deterministic",
                "--ttft-ms",
                "20",
                "--gap-ms",
                "10")) {
            String baseUrl = simulator
                    .awaitLine(LocalSimulator.SERVING, Duration.ofSeconds(60))
                    .group(2);
            bench = tokenpulse.run(
                    Tokenpulse.ROOT,
                    Duration.ofMinutes(3),
                    List.of(
                            "bench",
                            "--base-url",
                            baseUrl,
                            "--model",
                            "gpt2",
                            "--dataset-name",
                            "random",
                            "--random-input-len",
                            "16",
                            "--random-output-len",
                            "100",
                            "--ignore-eos",
                            "--num-prompts",
                            "4",
                            "--probe-request-rate",
                            "20",
                            "--metrics-port",
                            "0",
                            "--disable-tqdm",
                            "--data-dir",
                            work.resolve("data").toString(),
                            "--save-result",
                            "--result-dir",
                            work.toString(),
                            "--result-filename",
                            "drain.json"));
        }
        assertThat(bench.exitCode()).as(bench.toString()).isZero();

        JsonNode r = new ObjectMapper().readTree(work.resolve("drain.json").toFile());
        assertThat(r.get("completed").asInt()).isEqualTo(4);
        // 4 prompts of 100 tokens 10 ms apart: about 1 s of drain, 20 probes due in it
        assertThat(r.get("duration").asDouble()).isGreaterThan(1.0);
        assertThat(r.get("probes").get("completed").asLong())
                .as("probes sent while the prompts streamed, after their dispatch: %s", r.get("probes"))
                .isGreaterThanOrEqualTo(10);
    }
}
