package io.tokenpulse.aggregator.definitions;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * NVIDIA AIPerf's definitions. Read in ai-dynamo/aiperf at snapshot db4f6397:
 * {@code aiperf/metrics/types/ttft_metric.py}, {@code inter_token_latency_metric.py},
 * {@code request_latency_metric.py}, {@code request_throughput_metric.py},
 * {@code output_token_throughput_metric.py}, {@code benchmark_duration_metric.py};
 * {@code aiperf/metrics/metric_dicts.py} (statistics).
 * <ul>
 *   <li>Only responses with text count: TTFT is the first one minus the send, request latency the
 *       last one minus the send.
 *   <li>ITL is per request, {@code (latency − TTFT)/(OSL − 1)}, for OSL ≥ 2: vLLM's TPOT. AIPerf
 *       reports no metric called TPOT (its per-chunk ICL is not on the console).
 *   <li>Duration runs from the first valid request's send to the last valid response; throughputs
 *       count valid (successful) requests.
 *   <li>Statistics: {@code np.mean}, {@code np.percentile} (linear), p50 for the median.
 * </ul>
 * AIPerf counts OSL with the client tokenizer by default; TokenPulse keeps the server's usage count,
 * which AIPerf uses with {@code --use-server-token-count}.
 */
final class AiPerfDefinition implements Definition {

    @Override
    public String name() {
        return "aiperf";
    }

    @Override
    public ToolScores score(TimedRun run) {
        List<TimedRequest> valid =
                run.successful().stream().filter(r -> r.contentNs().length > 0).toList();
        Map<ScoreRow, Double> scores = new EnumMap<>(ScoreRow.class);
        Stats.putNumpy(
                scores,
                ScoreRow.Family.TTFT,
                valid.stream().mapToDouble(AiPerfDefinition::ttftMs).toArray());
        Stats.putNumpy(
                scores,
                ScoreRow.Family.ITL,
                valid.stream()
                        .filter(r -> r.outputTokens() >= 2)
                        .mapToDouble(r -> (latencyMs(r) - ttftMs(r)) / (r.outputTokens() - 1))
                        .toArray());
        Stats.putNumpy(
                scores,
                ScoreRow.Family.E2EL,
                valid.stream().mapToDouble(AiPerfDefinition::latencyMs).toArray());
        long start = valid.stream().mapToLong(TimedRequest::sentNs).min().orElse(0);
        long end = valid.stream().mapToLong(AiPerfDefinition::last).max().orElse(0);
        Throughputs.put(
                scores,
                end - start,
                valid.size(),
                run.requests().size() - valid.size(),
                valid.stream().mapToLong(TimedRequest::promptTokens).sum(),
                valid.stream().mapToLong(TimedRequest::outputTokens).sum());
        return new ToolScores(name(), scores);
    }

    private static double ttftMs(TimedRequest r) {
        return Stats.ms(r.contentNs()[0] - r.sentNs());
    }

    private static double latencyMs(TimedRequest r) {
        return Stats.ms(last(r) - r.sentNs());
    }

    private static long last(TimedRequest r) {
        long[] content = r.contentNs();
        return content[content.length - 1];
    }

    @Override
    public String rule(ScoreRow.Family family) {
        return switch (family) {
            case TTFT -> "TTFT ends at the first response with text";
            case ITL -> "ITL is one value per request, (latency − TTFT)/(OSL − 1), unweighted";
            case TPOT -> "AIPerf reports no TPOT";
            case E2EL -> "request latency ends at the last response with text";
            case OUTPUT_THROUGHPUT, REQUEST_THROUGHPUT, DURATION ->
                "throughput counts valid requests from the first send to the last response with text";
            case REQUESTS -> "a request is valid with an HTTP 200 and at least one response with text";
            case TOKENS -> "tokens are the output sequence lengths of valid requests";
        };
    }

    @Override
    public String percentileRule() {
        return "np.percentile interpolates linearly between ranks";
    }
}
