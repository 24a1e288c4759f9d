package io.tokenpulse.aggregator.report;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import io.tokenpulse.aggregator.metrics.MetricStats;
import io.tokenpulse.aggregator.metrics.ProbeResult;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code --probe-request-rate} requests as the report shows them (extension, vllm#49611): a
 * {@code Probe Requests} section after the block, and in the result file the object {@code probes}
 * with {@code completed}, {@code failed} and the metric keys of their TTFT and E2EL. None of them is
 * in the block's counts, throughputs or latencies. Current {@code vllm bench serve} reports its probes
 * too, in a shorter form: its lines ({@link #vllmLines}) and keys ({@link VllmKeys}) are written as it
 * writes them, so scripts that read vLLM's keep working.
 *
 * @param completed successful probes
 * @param failed    failed probes
 * @param metrics   TTFT and E2EL of the successful probes
 * @param vllmE2el  vLLM's probe E2EL figures; empty without a successful probe (vLLM then prints and
 *                  writes nothing) or for a run scored before they were kept
 */
@JsonPropertyOrder({"completed", "failed"})
public record ProbeReport(
        long completed,
        long failed,
        @JsonIgnore List<MetricStats> metrics,
        @JsonIgnore Optional<ProbeResult.VllmE2el> vllmE2el) {

    /**
     * vLLM's probe keys, flat in the result file ({@code vllm/benchmarks/serve.py}, {@code probe_stats},
     * commit 12068ee6871c89e5b41222063a5ea0e1bd093b1a).
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record VllmKeys(
            long probeCompleted,
            long probeFailed,
            double probeMedianE2elMs,
            double probeP99E2elMs,
            double probeMaxE2elMs) {}

    public ProbeReport {
        metrics = List.copyOf(metrics);
    }

    /** The metric keys and values, as the run's result keys name them. */
    @JsonUnwrapped
    @JsonSerialize(using = PythonJson.InlineEntries.class)
    public Map<String, Double> metricValues() {
        return ResultJson.metricValues(metrics);
    }

    /** vLLM's keys; empty when vLLM writes none. */
    public Optional<VllmKeys> vllmKeys() {
        return vllmE2el.map(e -> new VllmKeys(completed, failed, e.medianMs(), e.p99Ms(), e.maxMs()));
    }

    /** vLLM's "Probe Requests" lines, which it prints inside its block after the throughputs; empty as {@link #vllmKeys}. */
    void vllmLines(StringBuilder text) {
        vllmKeys().ifPresent(keys -> {
            text.append(ConsoleReport.centred("Probe Requests", '-')).append('\n');
            ConsoleReport.integer(text, "Probe requests completed:", keys.probeCompleted());
            ConsoleReport.integer(text, "Probe requests failed:", keys.probeFailed());
            ConsoleReport.decimal(text, "Median probe E2EL (ms):", keys.probeMedianE2elMs());
            ConsoleReport.decimal(text, "P99 probe E2EL (ms):", keys.probeP99E2elMs());
            ConsoleReport.decimal(text, "Max probe E2EL (ms):", keys.probeMaxE2elMs());
        });
    }

    /** The section's lines, printed after the block. */
    String lines() {
        StringBuilder text = new StringBuilder();
        text.append(ConsoleReport.centred(" Probe Requests ", '=')).append('\n');
        ConsoleReport.integer(text, "Successful probes:", completed);
        if (failed > 0) {
            ConsoleReport.integer(text, "Failed probes:", failed);
        }
        ConsoleReport.metricSections(text, metrics);
        text.append("=".repeat(50)).append('\n');
        return text.toString();
    }
}
