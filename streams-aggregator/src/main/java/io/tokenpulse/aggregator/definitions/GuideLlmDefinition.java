package io.tokenpulse.aggregator.definitions;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * GuideLLM's definitions (v0.7.x). Read in vllm-project/guidellm at commit ee7a7745:
 * {@code src/guidellm/schemas/request_stats.py} (per-request values),
 * {@code src/guidellm/benchmark/schemas/metrics.py} {@code GenerativeMetrics.compile} (weights,
 * throughputs), {@code src/guidellm/backends/openai/request_handlers.py} {@code add_streaming_line}
 * (which lines are token iterations); statistics in {@code src/guidellm/schemas/statistics.py} at
 * commit 03820eba.
 * <ul>
 *   <li>Only events with text are token iterations; TTFT is the first one minus the send.
 *   <li>ITL is per request, {@code (last − first)/(N − 1)}, weighted by N − 1 (none for N ≤ 1).
 *   <li>TPOT is per request, {@code (last − send)/N}, weighted by N: it includes TTFT.
 *   <li>Request latency ends when the stream closes.
 *   <li>Latencies cover successful requests; throughputs cover every request (status "total").
 *   <li>Output tok/s spreads each request's N tokens from its first to its last iteration, so its
 *       duration runs from the run's first token to its last; requests/s counts request ends over
 *       the run's window.
 *   <li>Statistics: weighted mean; median and percentiles by weighted nearest rank.
 * </ul>
 */
final class GuideLlmDefinition implements Definition {

    @Override
    public String name() {
        return "guidellm";
    }

    @Override
    public ToolScores score(TimedRun run) {
        List<TimedRequest> ok =
                run.successful().stream().filter(r -> r.contentNs().length > 0).toList();
        Map<ScoreRow, Double> scores = new EnumMap<>(ScoreRow.class);
        double[] ttft = ok.stream()
                .mapToDouble(r -> Stats.ms(r.contentNs()[0] - r.sentNs()))
                .toArray();
        Stats.putGuideLlm(scores, ScoreRow.Family.TTFT, ttft, ones(ttft.length));
        List<TimedRequest> many = ok.stream().filter(r -> r.outputTokens() > 1).toList();
        Stats.putGuideLlm(
                scores,
                ScoreRow.Family.ITL,
                many.stream()
                        .mapToDouble(r -> Stats.ms(last(r) - r.contentNs()[0]) / (r.outputTokens() - 1))
                        .toArray(),
                many.stream().mapToDouble(r -> r.outputTokens() - 1).toArray());
        List<TimedRequest> some = ok.stream().filter(r -> r.outputTokens() > 0).toList();
        Stats.putGuideLlm(
                scores,
                ScoreRow.Family.TPOT,
                some.stream()
                        .mapToDouble(r -> Stats.ms(last(r) - r.sentNs()) / r.outputTokens())
                        .toArray(),
                some.stream().mapToDouble(TimedRequest::outputTokens).toArray());
        double[] latency =
                ok.stream().mapToDouble(r -> Stats.ms(r.endNs() - r.sentNs())).toArray();
        Stats.putGuideLlm(scores, ScoreRow.Family.E2EL, latency, ones(latency.length));

        // Status "total": successful, errored and incomplete requests alike, with what they produced.
        List<TimedRequest> producing =
                run.requests().stream().filter(r -> r.contentNs().length > 0).toList();
        long firstToken =
                producing.stream().mapToLong(r -> r.contentNs()[0]).min().orElse(0);
        long lastToken =
                producing.stream().mapToLong(GuideLlmDefinition::last).max().orElse(0);
        long outputTokens =
                producing.stream().mapToLong(TimedRequest::outputTokens).sum();
        long inputTokens =
                producing.stream().mapToLong(TimedRequest::promptTokens).sum();
        long ended = run.requests().stream()
                .filter(r -> r.endNs() >= run.startNs() && r.endNs() <= run.endNs())
                .count();
        long windowNs = run.endNs() - run.startNs();
        Throughputs.put(
                scores,
                lastToken - firstToken,
                0,
                ok.size(),
                run.requests().size() - ok.size(),
                inputTokens,
                outputTokens);
        scores.put(ScoreRow.REQUEST_THROUGHPUT, windowNs > 0 ? ended / Stats.seconds(windowNs) : 0);
        return new ToolScores(name(), scores);
    }

    private static long last(TimedRequest r) {
        long[] content = r.contentNs();
        return content[content.length - 1];
    }

    private static double[] ones(int n) {
        double[] ones = new double[n];
        java.util.Arrays.fill(ones, 1);
        return ones;
    }

    @Override
    public String rule(ScoreRow.Family family) {
        return switch (family) {
            case TTFT -> "TTFT ends at the first event with text";
            case ITL -> "ITL is one value per request, (last − first token)/(N − 1), weighted by N − 1";
            case TPOT -> "TPOT is (last token − send)/N per request, TTFT included, weighted by N";
            case E2EL -> "request latency ends when the stream closes";
            case OUTPUT_THROUGHPUT, DURATION ->
                "output tok/s counts every request's tokens (failed ones included) from the run's first token to its last";
            case REQUEST_THROUGHPUT ->
                "requests/s counts every request that ended in the run's window, failed ones included";
            case REQUESTS -> "a request errors on an exception, an HTTP error or a response without text";
            case TOKENS ->
                "tokens are usage.completion_tokens of every request that produced text, failed ones included";
        };
    }

    @Override
    public String percentileRule() {
        return "the weighted nearest rank without interpolation (the lower middle for an even median)";
    }
}
