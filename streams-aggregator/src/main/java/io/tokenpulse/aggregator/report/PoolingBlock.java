package io.tokenpulse.aggregator.report;

import io.tokenpulse.aggregator.metrics.Metric;
import io.tokenpulse.aggregator.metrics.MetricStats;
import io.tokenpulse.aggregator.metrics.RunResult;
import io.tokenpulse.schemas.task.PoolingBackends;
import java.util.List;

/**
 * vLLM's block for a pooling run (embeddings, rerank, score: {@code vllm bench serve} with a backend
 * of its {@code POOLING_BACKENDS}, {@code calculate_metrics_for_embeddings}): nothing is generated, so
 * the block has no generated tokens, output throughput, peak lines, nor TTFT, TPOT or ITL sections;
 * "Total token throughput" is the input tokens per second; E2EL is the one latency section (vLLM's
 * pooling default {@code --percentile-metrics e2el}, and it ignores the other metrics for such runs).
 * vLLM's mid-2025 {@code benchmark_serving.py} had no pooling backends, so both layouts print current
 * vLLM's lines. Stateless.
 *
 * @see "docs/metrics.md, A pooling run"
 */
final class PoolingBlock {

    private PoolingBlock() {}

    /** Whether the run's backend makes it a pooling run. */
    static boolean isPooling(RunConfig config) {
        return PoolingBackends.contains(config.backend());
    }

    /** The selected metrics a pooling run reports: E2EL alone, when selected. */
    static List<MetricStats> reported(List<MetricStats> metrics) {
        return metrics.stream().filter(s -> s.metric() == Metric.E2EL).toList();
    }

    /** The lines between the block's title and its E2EL section, in vLLM's order. */
    static void headLines(StringBuilder text, RunConfig config, RunResult result) {
        ConsoleReport.integer(text, "Successful requests:", result.completed());
        ConsoleReport.integer(text, "Failed requests:", result.failed());
        config.maxConcurrency().ifPresent(limit -> ConsoleReport.integer(text, "Maximum request concurrency:", limit));
        if (Double.isFinite(config.requestRate())) {
            ConsoleReport.decimal(text, "Request rate configured (RPS):", config.requestRate());
        }
        ConsoleReport.decimal(text, "Benchmark duration (s):", result.durationSeconds());
        ConsoleReport.integer(text, "Total input tokens:", result.totalInputTokens());
        ConsoleReport.decimal(text, "Request throughput (req/s):", result.requestThroughput());
        result.requestGoodput().ifPresent(goodput -> ConsoleReport.decimal(text, "Request goodput (req/s):", goodput));
        // no output: (input + 0) / duration, vLLM's input token throughput under this label
        ConsoleReport.decimal(text, "Total token throughput (tok/s):", result.totalTokenThroughput());
    }
}
