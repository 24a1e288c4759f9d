package io.tokenpulse.aggregator.report;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a result file of one run holds, as the tools that read results back use it ({@code compare},
 * {@code report}, the sweep's summary and its SLO verdict): vLLM's figures (every version's keys, and
 * TokenPulse's, which are vLLM's), the run's settings and the per-request lists. Read from a file's
 * JSON, or from the {@link ResultJson} a run just wrote, by {@link ResultReader} only. A figure the file
 * does not have is NaN.
 *
 * @param label vLLM's {@code --label}, when the file has one
 * @param settings the run's settings as the file lists them before its figures (vLLM writes its
 *     settings first, its figures from {@code duration} on), each value as text, in file order
 * @param rtfx vLLM's RTFx (an audio run's seconds of audio per second of the run); 0 for a run
 *     without audio, NaN when the file has no such key
 * @param requests the {@code --save-detailed} lists; {@link Requests#NONE} without them
 */
public record BenchResult(
        Optional<String> label,
        Map<String, String> settings,
        double completed,
        double failed,
        double duration,
        double totalInputTokens,
        double totalOutputTokens,
        double requestThroughput,
        double outputThroughput,
        double totalTokenThroughput,
        double rtfx,
        Latency ttft,
        Latency ttfo,
        Latency tpot,
        Latency itl,
        Requests requests) {

    public BenchResult {
        settings = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(settings));
    }

    /**
     * A latency's mean, median and P99 in ms (the figures published comparison tables show); NaN
     * where the file has none.
     */
    public record Latency(double meanMs, double medianMs, double p99Ms) {
        public static final Latency NONE = new Latency(Double.NaN, Double.NaN, Double.NaN);
    }

    /**
     * The per-request lists of {@code --save-detailed}, one entry per request in request order, in
     * seconds as vLLM writes them.
     *
     * @param ttftsS each request's time to first token, 0 for a request without one (a failure)
     * @param ttfosS a reasoning run's time to first output token, 0 when no answer text came; empty for other runs
     * @param itlsS each request's inter-token latencies
     * @param errors each request's error, "" for a success; empty when the file does not say
     * @param inputLens each request's prompt tokens; empty when the file does not say
     * @param outputLens each request's output tokens (0 for a failure, as vLLM writes them); empty when the file does not say
     */
    public record Requests(
            List<Double> ttftsS,
            Optional<List<Double>> ttfosS,
            List<List<Double>> itlsS,
            Optional<List<String>> errors,
            List<Integer> inputLens,
            List<Integer> outputLens) {
        public static final Requests NONE =
                new Requests(List.of(), Optional.empty(), List.of(), Optional.empty(), List.of(), List.of());
    }
}
