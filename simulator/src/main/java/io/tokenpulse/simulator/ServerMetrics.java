package io.tokenpulse.simulator;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.tokenpulse.simulator.engine.EngineState;
import io.tokenpulse.simulator.engine.LatencyModel;
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToDoubleFunction;

/**
 * The simulator's {@code GET /metrics}, in the Prometheus text format under vLLM's or SGLang's names
 * ({@link MetricsStyle}): running and waiting requests and KV cache use from the engine's own
 * queues ({@link LatencyModel#state}), TTFT, inter-token and end-to-end histograms (vLLM's buckets)
 * and token counters from the responses as they are sent; vLLM's prefix-cache queries and hits (in
 * tokens) and preemptions, or SGLang's {@code cache_hit_rate} (hits over queries since the start),
 * from the engine's counters ({@link EngineState}).
 *
 * <p>Threading: the request callbacks run on any event loop; {@link #write} on any thread.
 */
final class ServerMetrics {

    private static final double[] TTFT_BUCKETS = {
        0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0,
        160.0, 640.0, 2560.0
    };
    private static final double[] ITL_BUCKETS = {
        0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0
    };
    private static final double[] E2E_BUCKETS = {
        0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 2.5, 5.0, 10.0, 15.0, 20.0, 30.0, 40.0, 50.0, 60.0, 120.0, 240.0, 480.0, 960.0,
        1920.0, 7680.0
    };

    // exemplars off: they would need OpenTelemetry's span context (the tracer initializer is left out)
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final String model;
    private final Histogram ttft;
    private final Histogram itl;
    private final Histogram e2e;
    private final Counter promptTokens;
    private final Counter generationTokens;
    private final Counter sessionRequests;
    private final LatencyModel engine;

    ServerMetrics(MetricsStyle style, String model, LatencyModel engine) {
        this.model = model;
        this.engine = engine;
        gauge(style.running, "Number of requests in model execution batches.", EngineState::running);
        gauge(style.waiting, "Number of requests waiting to be processed.", EngineState::waiting);
        gauge(style.kvCacheUsage, "KV-cache usage. 1 means 100 percent usage.", EngineState::kvCacheUsage);
        ttft = histogram(style.ttft, "Histogram of time to first token in seconds.", TTFT_BUCKETS);
        itl = histogram(style.itl, "Histogram of inter-token latency in seconds.", ITL_BUCKETS);
        e2e = histogram(style.e2e, "Histogram of e2e request latency in seconds.", E2E_BUCKETS);
        promptTokens = counter(style.promptTokens, "Number of prefill tokens processed.");
        generationTokens = counter(style.generationTokens, "Number of generation tokens processed.");
        // the simulator's own: shows that a client's sessions reached the server as sessions
        sessionRequests = counter(
                "tokenpulse:session_affinity_requests",
                "Generation requests that carried an " + SESSION_HEADER + " header (a router keeps such a"
                        + " session on one replica).");
        if (style == MetricsStyle.VLLM) {
            counter(
                    "vllm:prefix_cache_queries",
                    "Prefix cache queries, in terms of tokens.",
                    EngineState::prefixCacheQueries);
            counter("vllm:prefix_cache_hits", "Prefix cache hits, in terms of tokens.", EngineState::prefixCacheHits);
            counter(
                    "vllm:num_preemptions",
                    "Cumulative number of preemption from the engine.",
                    EngineState::preemptions);
        } else {
            gauge(
                    "sglang:cache_hit_rate",
                    "The prefix cache hit rate.",
                    state -> state.prefixCacheQueries() == 0
                            ? 0
                            : state.prefixCacheHits() / (double) state.prefixCacheQueries());
        }
    }

    /** AIPerf's session-affinity header, which {@code bench --session-header} sends by default. */
    static final String SESSION_HEADER = "X-Session-Affinity";

    /** A generation request carried {@link #SESSION_HEADER}. */
    void sessionRequest() {
        sessionRequests.labelValues(model).inc();
    }

    /** A request entered the engine with {@code prompt} tokens. */
    void requestStarted(int prompt) {
        inFlight.incrementAndGet();
        promptTokens.labelValues(model).inc(prompt);
    }

    /** {@code tokens} more were sent, {@code sinceNs} after the previous event (or the request, for the first). */
    void tokensSent(int tokens, boolean first, long sinceNs) {
        generationTokens.labelValues(model).inc(tokens);
        (first ? ttft : itl).labelValues(model).observe(sinceNs / 1e9);
    }

    /** The request ended, {@code e2eNs} after it arrived; {@code complete} when its last token was sent. */
    void requestEnded(boolean complete, long e2eNs) {
        inFlight.decrementAndGet();
        if (complete) {
            e2e.labelValues(model).observe(e2eNs / 1e9);
        }
    }

    String contentType() {
        return writer.getContentType();
    }

    void write(OutputStream out) throws IOException {
        writer.write(out, registry.scrape());
    }

    private EngineState state() {
        return engine.state(
                inFlight.get(), (long) promptTokens.labelValues(model).get());
    }

    private void gauge(String name, String help, ToDoubleFunction<EngineState> value) {
        GaugeWithCallback.builder()
                .name(name)
                .help(help)
                .labelNames("model_name")
                .callback(callback -> callback.call(value.applyAsDouble(state()), model))
                .register(registry);
    }

    /** A counter the engine keeps; the text format adds {@code _total}. */
    private void counter(String name, String help, ToDoubleFunction<EngineState> value) {
        CounterWithCallback.builder()
                .name(name)
                .help(help)
                .labelNames("model_name")
                .callback(callback -> callback.call(value.applyAsDouble(state()), model))
                .register(registry);
    }

    private Histogram histogram(String name, String help, double[] buckets) {
        return Histogram.builder()
                .name(name)
                .help(help)
                .labelNames("model_name")
                .classicOnly()
                .withoutExemplars()
                .classicUpperBounds(buckets)
                .register(registry);
    }

    private Counter counter(String name, String help) {
        Counter counter = Counter.builder()
                .name(name)
                .help(help)
                .labelNames("model_name")
                .withoutExemplars()
                .register(registry);
        // registered at 0, so that a rate reads 0 before the first request instead of no data
        counter.labelValues(model);
        return counter;
    }
}
