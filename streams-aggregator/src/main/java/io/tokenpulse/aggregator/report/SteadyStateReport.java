package io.tokenpulse.aggregator.report;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import io.tokenpulse.aggregator.metrics.MetricStats;
import java.util.List;
import java.util.Map;

/**
 * The run's steady plateau as the report shows it (extension; docs/metrics.md, steady state): after
 * the block a {@code Steady State} section in the block's line format, and in the result file the
 * object {@code steady_state} with these keys and the metric keys as the run's ({@code mean_ttft_ms},
 * ...), over only the requests sent and ended inside the plateau.
 *
 * @param startS             the plateau's start, seconds after the schedule start
 * @param endS               its end, likewise
 * @param plateauInFlight    the peak in-flight count the band is measured from
 * @param bandFloor          the band's lowest in-flight count
 * @param completed          successful requests wholly inside
 * @param requestThroughput  completed / (end - start)
 * @param outputThroughput   their output tokens / (end - start)
 * @param metrics            the selected metrics over them
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonPropertyOrder({
    "start_s",
    "end_s",
    "plateau_in_flight",
    "band_floor",
    "completed",
    "request_throughput",
    "output_throughput"
})
public record SteadyStateReport(
        double startS,
        double endS,
        long plateauInFlight,
        long bandFloor,
        long completed,
        double requestThroughput,
        double outputThroughput,
        @JsonIgnore List<MetricStats> metrics) {

    public SteadyStateReport {
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
        text.append(ConsoleReport.centred(" Steady State ", '=')).append('\n');
        ConsoleReport.decimal(text, "Plateau start (s):", startS);
        ConsoleReport.decimal(text, "Plateau end (s):", endS);
        ConsoleReport.integer(text, "Plateau in-flight requests:", plateauInFlight);
        ConsoleReport.integer(text, "Successful requests:", completed);
        ConsoleReport.decimal(text, "Request throughput (req/s):", requestThroughput);
        ConsoleReport.decimal(text, "Output token throughput (tok/s):", outputThroughput);
        ConsoleReport.metricSections(text, metrics);
        text.append("=".repeat(50)).append('\n');
        return text.toString();
    }

    /** The one line printed instead of the section when the run had no plateau. */
    static String absentLine(String why) {
        return "Steady state: none (" + why + ")\n";
    }
}
