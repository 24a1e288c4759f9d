package io.tokenpulse.aggregator.definitions;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * kubernetes-sigs/inference-perf's definitions. Read at commit 7de5ef2e:
 * {@code inference_perf/apis/streaming_parser.py} {@code parse_sse_stream},
 * {@code inference_perf/apis/chat.py}, {@code inference_perf/apis/completion.py},
 * {@code inference_perf/reportgen/base.py} {@code summarize_requests}.
 * <ul>
 *   <li>Only chunks with text get a time; TTFT, TPOT and ITL exist only for a request with more
 *       than one of them.
 *   <li>TTFT is the first minus the start; TPOT {@code (last − first)/(N − 1)}; ITL every gap,
 *       pooled.
 *   <li>Request latency ends after the whole stream was read.
 *   <li>Throughput: successful requests over the first start to the last end of all requests,
 *       failed ones included.
 *   <li>Statistics: {@code np.mean}, {@code np.percentile} (linear), p50 for the median.
 * </ul>
 * Older inference-perf versions divided TPOT by the number of chunks minus one instead of N − 1
 * (the same when every chunk carries one token). inference-perf counts N with the client tokenizer unless {@code use_server_output_tokens}; TokenPulse
 * keeps the server's usage count.
 */
final class InferencePerfDefinition implements Definition {

    @Override
    public String name() {
        return "inference-perf";
    }

    @Override
    public ToolScores score(TimedRun run) {
        List<TimedRequest> ok = run.successful();
        List<TimedRequest> streamed =
                ok.stream().filter(r -> r.contentNs().length > 1).toList();
        Map<ScoreRow, Double> scores = new EnumMap<>(ScoreRow.class);
        Stats.putNumpy(
                scores,
                ScoreRow.Family.TTFT,
                streamed.stream()
                        .mapToDouble(r -> Stats.ms(r.contentNs()[0] - r.sentNs()))
                        .toArray());
        Stats.putNumpy(
                scores,
                ScoreRow.Family.ITL,
                streamed.stream()
                        .flatMapToDouble(r -> VllmDefinition.gapsMs(r.contentNs()))
                        .toArray());
        Stats.putNumpy(
                scores,
                ScoreRow.Family.TPOT,
                streamed.stream()
                        .filter(r -> r.outputTokens() > 1)
                        .mapToDouble(r -> {
                            long[] content = r.contentNs();
                            return Stats.ms(content[content.length - 1] - content[0]) / (r.outputTokens() - 1);
                        })
                        .toArray());
        Stats.putNumpy(
                scores,
                ScoreRow.Family.E2EL,
                ok.stream().mapToDouble(r -> Stats.ms(r.endNs() - r.sentNs())).toArray());
        long start =
                run.requests().stream().mapToLong(TimedRequest::sentNs).min().orElse(0);
        long end = run.requests().stream().mapToLong(TimedRequest::endNs).max().orElse(0);
        Throughputs.put(
                scores,
                end - start,
                ok.size(),
                run.requests().size() - ok.size(),
                ok.stream().mapToLong(TimedRequest::promptTokens).sum(),
                ok.stream().mapToLong(TimedRequest::outputTokens).sum());
        return new ToolScores(name(), scores);
    }

    @Override
    public String rule(ScoreRow.Family family) {
        return switch (family) {
            case TTFT -> "TTFT ends at the first chunk with text and exists only for requests with two or more";
            case ITL -> "ITL is every gap between chunks with text, pooled over requests with two or more";
            case TPOT -> "TPOT is (last − first chunk)/(N − 1), without the stream's end";
            case E2EL -> "request latency ends after the whole stream was read";
            case OUTPUT_THROUGHPUT, REQUEST_THROUGHPUT, DURATION ->
                "throughput counts successful requests from the first start to the last end of all requests";
            case REQUESTS -> "a request fails on an HTTP error or an exception";
            case TOKENS -> "tokens are the output counts of successful requests";
        };
    }

    @Override
    public String percentileRule() {
        return "np.percentile interpolates linearly between ranks";
    }
}
