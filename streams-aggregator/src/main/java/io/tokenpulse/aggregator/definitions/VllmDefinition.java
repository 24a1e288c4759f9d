package io.tokenpulse.aggregator.definitions;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.stream.DoubleStream;

/**
 * {@code vllm bench serve}'s definitions, TokenPulse's own (docs/metrics.md). Read in
 * local-inference-lab/vllm (a fork of vllm-project/vllm) at commit 28be48fa:
 * {@code vllm/benchmarks/serve.py} {@code calculate_metrics} and
 * {@code vllm/benchmarks/lib/endpoint_request_func.py}.
 * <ul>
 *   <li>TTFT: the first event with a non-empty {@code choices}, empty text included; a successful
 *       request with no event counts 0 (the chat client's {@code ttft = 0.0}).
 *   <li>ITL: every gap between consecutive events, pooled over the successful requests.
 *   <li>E2EL ({@code latency}): the last event minus the send.
 *   <li>TPOT: {@code (latency − ttft)/(output_len − 1)} for {@code output_len > 1}.
 *   <li>Throughput: successful requests and their tokens over the run from dispatch start to the
 *       end of {@code asyncio.gather}.
 *   <li>Statistics: {@code np.mean}, {@code np.median}, {@code np.percentile} (linear).
 * </ul>
 */
final class VllmDefinition implements Definition {

    @Override
    public String name() {
        return "vllm";
    }

    @Override
    public ToolScores score(TimedRun run) {
        return pooled(name(), run, TimedRequest::chunkNs, VllmDefinition::e2elMs);
    }

    /**
     * vLLM's arithmetic over each successful request's {@code arrivals} (SGLang's is the same over
     * other arrivals and another end): TTFT the first arrival minus the send (0 without one), ITL every
     * gap pooled, TPOT {@code (e2el − ttft)/(output_len − 1)}, numpy's statistics, the throughputs.
     */
    static ToolScores pooled(
            String tool, TimedRun run, Function<TimedRequest, long[]> arrivals, ToDoubleFunction<TimedRequest> e2elMs) {
        List<TimedRequest> ok = run.successful();
        ToDoubleFunction<TimedRequest> ttftMs = r -> {
            long[] times = arrivals.apply(r);
            return times.length == 0 ? 0 : Stats.ms(times[0] - r.sentNs());
        };
        Map<ScoreRow, Double> scores = new EnumMap<>(ScoreRow.class);
        Stats.putNumpy(
                scores, ScoreRow.Family.TTFT, ok.stream().mapToDouble(ttftMs).toArray());
        Stats.putNumpy(
                scores,
                ScoreRow.Family.ITL,
                ok.stream().flatMapToDouble(r -> gapsMs(arrivals.apply(r))).toArray());
        Stats.putNumpy(
                scores,
                ScoreRow.Family.TPOT,
                ok.stream()
                        .filter(r -> r.outputTokens() > 1)
                        .mapToDouble(r -> (e2elMs.applyAsDouble(r) - ttftMs.applyAsDouble(r)) / (r.outputTokens() - 1))
                        .toArray());
        Stats.putNumpy(
                scores, ScoreRow.Family.E2EL, ok.stream().mapToDouble(e2elMs).toArray());
        Throughputs.put(
                scores,
                run.endNs() - run.startNs(),
                ok.size(),
                run.requests().size() - ok.size(),
                ok.stream().mapToLong(TimedRequest::promptTokens).sum(),
                ok.stream().mapToLong(TimedRequest::outputTokens).sum());
        return new ToolScores(tool, scores);
    }

    private static double e2elMs(TimedRequest r) {
        long[] chunks = r.chunkNs();
        return chunks.length == 0 ? 0 : Stats.ms(chunks[chunks.length - 1] - r.sentNs());
    }

    /** The gaps between consecutive arrivals, in ms. */
    static DoubleStream gapsMs(long[] arrivals) {
        return java.util.stream.IntStream.range(1, arrivals.length)
                .mapToDouble(i -> Stats.ms(arrivals[i] - arrivals[i - 1]));
    }

    @Override
    public String rule(ScoreRow.Family family) {
        return switch (family) {
            case TTFT -> "TTFT ends at the first event with choices, even one with empty text";
            case ITL -> "ITL is every gap between consecutive events, pooled over all requests";
            case TPOT -> "TPOT is (E2EL − TTFT)/(N − 1) per request";
            case E2EL -> "E2EL ends at the last event with choices";
            case OUTPUT_THROUGHPUT, REQUEST_THROUGHPUT, DURATION ->
                "throughput counts successful requests over the run from dispatch start to the last request's end";
            case REQUESTS -> "a request fails on an HTTP error, an exception or no event";
            case TOKENS -> "tokens are usage.completion_tokens (else a tokenizer count) of successful requests";
        };
    }

    @Override
    public String percentileRule() {
        return "np.percentile interpolates linearly between ranks";
    }
}
