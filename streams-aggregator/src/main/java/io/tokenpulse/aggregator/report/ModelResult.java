package io.tokenpulse.aggregator.report;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import io.tokenpulse.aggregator.metrics.MetricStats;
import java.util.List;
import java.util.Map;

/**
 * One served model's share of a LoRA run (extension: vLLM has no per-adapter view): its requests and
 * the statistics of its TTFT, TPOT and ITL, computed by the same metric math as the run's block. In
 * the result file one entry of {@code per_model}: {@code model}, {@code completed}, {@code failed}
 * and the metric keys as the run's ({@code mean_ttft_ms}, {@code p99_ttft_ms}, ...).
 *
 * @param model the model (adapter) name the requests sent
 * @param completed its successful requests
 * @param failed its failed requests
 * @param metrics its statistics, TTFT, TPOT and ITL in that order
 */
@JsonPropertyOrder({"model", "completed", "failed"})
public record ModelResult(
        String model,
        long completed,
        long failed,
        @JsonIgnore List<MetricStats> metrics) {

    public ModelResult {
        metrics = List.copyOf(metrics);
    }

    /** The metric keys and values, as the run's result keys name them. */
    @JsonUnwrapped
    @JsonSerialize(using = PythonJson.InlineEntries.class)
    public Map<String, Double> metricValues() {
        return ResultJson.metricValues(metrics);
    }
}
