package io.tokenpulse.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run whose topics stay idle longer than the producer's metadata idle limit (Kafka's
 * {@code metadata.max.idle.ms}, 5 minutes by default: every run longer than that) still gets every
 * record to Kafka and its summary. The limit is cut to its minimum, 5 s, and metadata refreshed every
 * second so that the idle topics are really dropped from the producer's cache between requests.
 */
class BenchIdleTopicsIT {

    @TempDir
    Path dataDir;

    @TempDir
    Path resultDir;

    @Test
    void topicsIdleLongerThanTheMetadataIdleLimitLoseNoRecord() throws Exception {
        // Three requests about 7 s apart (gamma arrivals with burstiness 1000 are nearly regular):
        // every topic idles past the 5 s limit, the runs topic for the whole run.
        ReplayCommandIT.Outcome run = ReplayCommandIT.execute(
                "bench",
                "--simulate",
                "--simulate-profile",
                "deterministic",
                "--dataset-name",
                "random",
                "--num-prompts",
                "3",
                "--request-rate",
                "0.14",
                "--burstiness",
                "1000",
                "--random-input-len",
                "16",
                "--random-output-len",
                "4",
                "--ignore-eos",
                "--disable-tqdm",
                "--kafka-property",
                "metadata.max.idle.ms=5000",
                "--kafka-property",
                "metadata.max.age.ms=1000",
                "--summary-timeout-s",
                "30",
                "--save-result",
                "--result-dir",
                resultDir.toString(),
                "--result-filename",
                "run.json",
                "--run-id",
                "idle-run",
                "--data-dir",
                dataDir.toString(),
                "--metrics-port",
                "0");
        int code = run.code();
        String out = run.out();
        assertThat(code).as(out).isZero();
        assertThat(out)
                .contains("Successful requests:                     3         ")
                .doesNotContain("not delivered");
        JsonNode json = new ObjectMapper().readTree(Files.readString(resultDir.resolve("run.json")));
        assertThat(json.get("completed").asInt()).isEqualTo(3);
        assertThat(json.get("total_output_tokens").asInt()).isEqualTo(3 * 4);
        assertThat(json.get("duration").asDouble())
                .as("the run spans the idle gaps")
                .isGreaterThan(10.0);
        assertThat(json.has("records_not_delivered"))
                .as("present only when records were lost")
                .isFalse();
        assertThat(out).contains("Client CPU per streamed event (us):");
        assertThat(json.get("client_startup_cpu_s").asDouble()).isPositive();
        assertThat(json.get("client_cpu_cores").asDouble())
                .as("a share of this machine's cores")
                .isPositive()
                .isLessThanOrEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(json.get("client_cpu_us_per_event").asDouble()).isPositive();
        assertThat(out).contains("Client send lag P99 (ms):");
        assertThat(json.get("client_send_lag_p99_ms").asDouble())
                .as("requests ~7 s apart leave the client idle: it sends on time")
                .isBetween(0.0, 10.0);
        assertThat(json.get("client_io_thread_busy").asDouble()).isBetween(0.0, 0.5);
        assertThat(json.get("client_limited").asBoolean()).isFalse();
        assertThat(json.get("client_warm_connections").asInt())
                .as("the pool is opened before the clock starts")
                .isBetween(1, 3);
        assertThat(json.get("client_warmup_requests").asInt()).isZero();
    }

    @Test
    void aKafkaPropertyThatCouldDeliverNothingIsAOneLineUsageErrorBeforeTheRun() {
        java.io.StringWriter err = new java.io.StringWriter();
        picocli.CommandLine cmd = TokenPulse.newCommandLine();
        cmd.setErr(new java.io.PrintWriter(err, true));
        int code = cmd.execute(
                "bench",
                "--simulate",
                "--dataset-name",
                "random",
                "--num-prompts",
                "1",
                "--kafka-property",
                "buffer.memory=1024",
                "--data-dir",
                dataDir.toString(),
                "--metrics-port",
                "0");
        assertThat(code).isEqualTo(2);
        assertThat(err.toString().strip())
                .isEqualTo("bench: Kafka property buffer.memory=1024 is smaller than"
                        + " batch.size=262144: no record would fit; raise buffer.memory or lower batch.size");
    }
}
