package io.tokenpulse.aggregator.report;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import io.tokenpulse.aggregator.metrics.MetricStats;
import java.util.List;
import java.util.Map;

/**
 * The {@code --probe-request-rate} requests as the report shows them (extension, vllm#49611): a
 * {@code Probe Requests} section after the block, and in the result file the object {@code probes}
 * with {@code completed}, {@code failed} and the metric keys of their TTFT and E2EL. None of them is
 * in the block's counts, throughputs or latencies.
 *
 * @param completed successful probes
 * @param failed    failed probes
 * @param metrics   TTFT and E2EL of the successful probes
 */
@JsonPropertyOrder({"completed", "failed"})
public record ProbeReport(
        long completed, long failed, @JsonIgnore List<MetricStats> metrics) {

    public ProbeReport {
        metrics = List.copyOf(metrics);
    }

    /** The metric keys and values, as the run's result keys name them. */
    @JsonUnwrapped
    @JsonSerialize(using = PythonJson.InlineEntries.class)
    public Map<String, Double> metricValues() {
        return ResultJson.metricValues(metrics);
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
