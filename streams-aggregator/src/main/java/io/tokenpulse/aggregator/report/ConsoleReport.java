package io.tokenpulse.aggregator.report;

import io.tokenpulse.aggregator.metrics.LatencyStats;
import io.tokenpulse.aggregator.metrics.Metric;
import io.tokenpulse.aggregator.metrics.MetricStats;
import io.tokenpulse.aggregator.metrics.ReasoningResult;
import io.tokenpulse.aggregator.metrics.RunResult;
import io.tokenpulse.schemas.python.PythonFloat;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Prints vLLM's {@code Serving Benchmark Result} block byte for byte: each line is the label
 * left-aligned in 40 characters, a space, then the value left-aligned in 10 (integers as integers,
 * other numbers with 2 decimals); section titles centred in 50 with '-'; lines end in '\n'.
 *
 * <p>Two layouts ({@link Layout}): by default that of {@code benchmark_serving.py} from mid-2025, the
 * version that printed vLLM's reports of that time, so the same options give the same lines in the same order;
 * later vLLM lines appear in it only where they cannot disturb that layout ("Maximum request
 * concurrency:" under {@code --max-concurrency}, "Failed requests:" when a request failed). Or that
 * of current {@code vllm bench serve}, with its newer lines. Stateless and thread-safe; prints only to
 * the stream it is given.
 *
 * @see "docs/metrics.md, The console block and the result file"
 */
public final class ConsoleReport {

    private static final int WIDTH = 50;

    private record Section(String label, String title) {}

    private static final Map<Metric, Section> SECTIONS = Map.of(
            Metric.CLIENT_QUEUE_TIME, new Section("Client Queue Time", "Client Queue Time"),
            Metric.E2EL_INCLUDING_CLIENT_QUEUE,
                    new Section("E2EL incl. Client Queue", "E2E Latency incl. Client Queue"),
            Metric.TTFT, new Section("TTFT", "Time to First Token"),
            Metric.TPOT, new Section("TPOT", "Time per Output Token (excl. 1st token)"),
            Metric.ITL, new Section("ITL", "Inter-token Latency"),
            Metric.E2EL, new Section("E2EL", "End-to-end Latency"),
            Metric.TOKEN_LATENCY, new Section("Token Latency", "Token Latency (e2e_latency / output_len)"),
            Metric.QUEUE_DELAY, new Section("Queue Delay", "Queue Delay (sent - scheduled)"));

    /** Which vLLM's block to print. */
    public enum Layout {
        /** {@code benchmark_serving.py} of mid-2025: the block of vLLM's 20-minute report of May 2025 byte for byte. */
        SEED,
        /**
         * Current {@code vllm bench serve} ({@code vllm/benchmarks/serve.py}, 2026): "Failed requests:"
         * always, "Request rate configured (RPS):" for a finite rate, "Peak output token throughput
         * (tok/s):" and "Peak concurrent requests:" after the output throughput, then "RTFx (Inverse
         * Real-Time Factor):" for a run that sent audio, and "Total token throughput" with a small t.
         */
        CURRENT
    }

    private final Layout layout;

    public ConsoleReport(Layout layout) {
        this.layout = layout;
    }

    /** Prints the block for one run. */
    public void print(RunConfig config, RunResult result, PrintStream out) {
        print(config, result, BlockExtensions.NONE, out);
    }

    /**
     * Prints the block for one run with what it has beyond vLLM's plain lines: a reasoning run gets its
     * "Time to First Output Token" section (extension) after TTFT's, or after the last section when TTFT
     * is not selected; a run whose server reported {@code cached_tokens} gets the prefix-cache lines
     * after the throughputs (extension, vllm#46938); in the current layout, a run with probes gets
     * vLLM's "Probe Requests" lines after those. Other runs' blocks stay vLLM's.
     */
    public void print(RunConfig config, RunResult result, BlockExtensions extensions, PrintStream out) {
        Optional<ReasoningResult> reasoning = extensions.reasoning();
        StringBuilder text = new StringBuilder();
        text.append(centred(" Serving Benchmark Result ", '=')).append('\n');
        boolean current = layout == Layout.CURRENT;
        if (PoolingBlock.isPooling(config)) {
            PoolingBlock.headLines(text, config, result);
            for (MetricStats stats : PoolingBlock.reported(result.metrics())) {
                text.append(centred(SECTIONS.get(stats.metric()).title(), '-')).append('\n');
                statLines(text, SECTIONS.get(stats.metric()).label(), stats.latency());
            }
            text.append("=".repeat(WIDTH)).append('\n');
            out.print(text);
            out.flush();
            return;
        }
        integer(text, "Successful requests:", result.completed());
        if (current || result.failed() > 0) {
            integer(text, "Failed requests:", result.failed());
        }
        config.maxConcurrency().ifPresent(limit -> integer(text, "Maximum request concurrency:", limit));
        if (current && Double.isFinite(config.requestRate())) {
            decimal(text, "Request rate configured (RPS):", config.requestRate());
        }
        decimal(text, "Benchmark duration (s):", result.durationSeconds());
        integer(text, "Total input tokens:", result.totalInputTokens());
        integer(text, "Total generated tokens:", result.totalOutputTokens());
        decimal(text, "Request throughput (req/s):", result.requestThroughput());
        result.requestGoodput().ifPresent(goodput -> decimal(text, "Request goodput (req/s):", goodput));
        decimal(text, "Output token throughput (tok/s):", result.outputThroughput());
        if (current) {
            decimal(text, "Peak output token throughput (tok/s):", result.maxOutputTokensPerS());
            // vLLM formats this count with 2 decimals too.
            decimal(text, "Peak concurrent requests:", result.maxConcurrentRequests());
            if (result.rtfx() > 0) {
                decimal(text, "RTFx (Inverse Real-Time Factor):", result.rtfx());
            }
        }
        decimal(
                text,
                current ? "Total token throughput (tok/s):" : "Total Token throughput (tok/s):",
                result.totalTokenThroughput());
        extensions.prefixCache().ifPresent(cache -> {
            integer(text, "Total cached tokens:", cache.cachedTokens());
            decimal(text, "Prefix cache hit rate (%):", 100 * cache.hitRate());
        });
        if (current) {
            extensions.probes().ifPresent(p -> p.vllmLines(text));
        }
        boolean afterTtft = result.metrics().stream().anyMatch(s -> s.metric() == Metric.TTFT);
        for (MetricStats stats : result.metrics()) {
            Section section = SECTIONS.get(stats.metric());
            text.append(centred(section.title(), '-')).append('\n');
            statLines(text, section.label(), stats.latency());
            if (stats.metric() == Metric.TTFT) {
                reasoning.ifPresent(r -> reasoningSection(text, r));
            }
        }
        if (!afterTtft) {
            reasoning.ifPresent(r -> reasoningSection(text, r));
        }
        text.append("=".repeat(WIDTH)).append('\n');
        if (!result.itlExact() && result.metrics().stream().anyMatch(s -> s.metric() == Metric.ITL)) {
            text.append("Note: ITL median and percentiles come from a sketch (relative error <= 0.1 %).\n");
        }
        out.print(text);
        out.flush();
    }

    /**
     * A LoRA run's per-model section, printed after the block (extension; the block itself stays
     * vLLM's): per model a title line, its requests and the mean and P99 of each metric, in the
     * block's line format. Nothing for a run without models.
     */
    public void printPerModel(List<ModelResult> models, PrintStream out) {
        if (models.isEmpty()) {
            return;
        }
        StringBuilder text = new StringBuilder();
        text.append(centred(" Per Served Model ", '=')).append('\n');
        for (ModelResult model : models) {
            text.append(centred(" " + model.model() + " ", '-')).append('\n');
            integer(text, "Successful requests:", model.completed());
            if (model.failed() > 0) {
                integer(text, "Failed requests:", model.failed());
            }
            for (MetricStats stats : model.metrics()) {
                String label = SECTIONS.get(stats.metric()).label();
                decimal(text, "Mean " + label + " (ms):", stats.meanMs());
                percentileLines(text, label, stats.percentiles());
            }
        }
        text.append("=".repeat(WIDTH)).append('\n');
        out.print(text);
        out.flush();
    }

    /**
     * A multi-turn run's per-turn section, printed after the block (extension): per turn index its
     * requests, mean input tokens (the history included) and TTFT mean, median and P99, in the block's
     * line format. Nothing for a run without sessions.
     */
    public void printPerTurn(List<TurnResult> turns, PrintStream out) {
        if (turns.isEmpty()) {
            return;
        }
        StringBuilder text = new StringBuilder();
        text.append(centred(" Per Turn ", '=')).append('\n');
        for (TurnResult turn : turns) {
            text.append(centred(" Turn " + turn.turn() + " ", '-')).append('\n');
            integer(text, "Successful requests:", turn.completed());
            if (turn.failed() > 0) {
                integer(text, "Failed requests:", turn.failed());
            }
            decimal(text, "Mean input tokens:", turn.meanInputTokens());
            decimal(text, "Mean TTFT (ms):", turn.meanTtftMs());
            decimal(text, "Median TTFT (ms):", turn.medianTtftMs());
            decimal(text, "P99 TTFT (ms):", turn.p99TtftMs());
        }
        text.append("=".repeat(WIDTH)).append('\n');
        out.print(text);
        out.flush();
    }

    /** One titled section per metric, as the block prints them (for the sections after it). */
    static void metricSections(StringBuilder text, List<MetricStats> metrics) {
        for (MetricStats stats : metrics) {
            Section section = SECTIONS.get(stats.metric());
            text.append(centred(section.title(), '-')).append('\n');
            statLines(text, section.label(), stats.latency());
        }
    }

    /**
     * The sections printed after the block (extensions): the steady plateau, or the line saying why
     * there is none, and the probes; nothing when the run has neither.
     */
    public void printAfterBlock(
            Optional<SteadyStateReport> steadyState,
            Optional<String> steadyStateAbsent,
            Optional<ProbeReport> probes,
            PrintStream out) {
        StringBuilder text = new StringBuilder();
        steadyState.ifPresent(s -> text.append(s.lines()));
        steadyStateAbsent.ifPresent(why -> text.append(SteadyStateReport.absentLine(why)));
        probes.ifPresent(p -> text.append(p.lines()));
        out.print(text);
        out.flush();
    }

    private static void statLines(StringBuilder text, String label, LatencyStats stats) {
        decimal(text, "Mean " + label + " (ms):", stats.meanMs());
        decimal(text, "Median " + label + " (ms):", stats.medianMs());
        percentileLines(text, label, stats.percentiles());
    }

    private static void percentileLines(StringBuilder text, String label, List<MetricStats.PercentileValue> values) {
        for (MetricStats.PercentileValue p : values) {
            decimal(text, "P" + PythonFloat.intOrRepr(p.percentile()) + " " + label + " (ms):", p.valueMs());
        }
    }

    // AIPerf's name for the first non-reasoning token (TTFO); vLLM has none
    private static void reasoningSection(StringBuilder text, ReasoningResult reasoning) {
        text.append(centred("Time to First Output Token", '-')).append('\n');
        integer(text, "Reasoning tokens:", reasoning.reasoningTokens());
        integer(text, "Answer tokens:", reasoning.answerTokens());
        statLines(text, "TTFO", reasoning.ttfo());
    }

    static void integer(StringBuilder text, String label, long value) {
        line(text, label, Long.toString(value));
    }

    static void decimal(StringBuilder text, String label, double value) {
        line(text, label, PythonFloat.twoDecimals(value));
    }

    // Python's "{:<40} {:<10}".format(label, value)
    private static void line(StringBuilder text, String label, String value) {
        text.append(padRight(label, 40)).append(' ').append(padRight(value, 10)).append('\n');
    }

    private static String padRight(String s, int width) {
        return s.length() >= width ? s : s + " ".repeat(width - s.length());
    }

    // Python's "{s:{c}^{n}}": the smaller half of the padding goes left.
    static String centred(String s, char fill) {
        int pad = Math.max(0, WIDTH - s.length());
        int left = pad / 2;
        return String.valueOf(fill).repeat(left) + s + String.valueOf(fill).repeat(pad - left);
    }
}
