package io.tokenpulse.aggregator.definitions;

/**
 * SGLang {@code bench_serving}'s definitions. Read in sgl-project/sglang at commit 6e48df33:
 * {@code python/sglang/benchmark/metrics.py} {@code do_calculate_metrics} and
 * {@code python/sglang/benchmark/backends/oai_client.py} (the older
 * {@code python/sglang/bench_serving.py} at 0033168f has the same rules).
 * <ul>
 *   <li>Only lines with text count: TTFT is the first one minus the send; ITL every gap between
 *       consecutive lines with text, pooled over the successful requests.
 *   <li>E2E latency is taken at the last line read, {@code [DONE]} included: the stream's end.
 *   <li>TPOT is {@code (latency − ttft)/(output_len − 1)} for {@code output_len > 1}.
 *   <li>A successful request without text counts TTFT 0.
 *   <li>Throughput: successful requests over the run from dispatch start to the end of gather.
 *   <li>Statistics: {@code np.mean}, {@code np.median}, {@code np.percentile} (linear).
 * </ul>
 */
final class SglangDefinition implements Definition {

    @Override
    public String name() {
        return "sglang";
    }

    @Override
    public ToolScores score(TimedRun run) {
        return VllmDefinition.pooled(name(), run, TimedRequest::contentNs, r -> Stats.ms(r.endNs() - r.sentNs()));
    }

    @Override
    public String rule(ScoreRow.Family family) {
        return switch (family) {
            case TTFT -> "TTFT ends at the first line with text";
            case ITL -> "ITL is every gap between consecutive lines with text, pooled over all requests";
            case TPOT -> "TPOT is (E2E − TTFT)/(N − 1) per request with E2E ending at [DONE]";
            case E2EL -> "E2E latency ends at the [DONE] line";
            case OUTPUT_THROUGHPUT, REQUEST_THROUGHPUT, DURATION ->
                "throughput counts successful requests over the run from dispatch start to the last request's end";
            case REQUESTS -> "a request fails on an HTTP error or an exception";
            case TOKENS -> "tokens are usage.completion_tokens of successful requests";
        };
    }

    @Override
    public String percentileRule() {
        return "np.percentile interpolates linearly between ranks";
    }
}
