package io.tokenpulse.simulator;

import io.soabase.recordbuilder.core.RecordBuilder;
import io.tokenpulse.simulator.engine.BatchingModel;
import io.tokenpulse.simulator.engine.DeterministicModel;
import io.tokenpulse.simulator.engine.EngineProfile;
import io.tokenpulse.simulator.engine.LatencyModel;
import io.tokenpulse.simulator.engine.OutputLengths;
import io.tokenpulse.simulator.engine.PromptCounter;
import io.tokenpulse.simulator.faults.FaultPlan;
import io.tokenpulse.tokenizers.Tokenizer;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How to run the simulator. Start from {@link #deterministic} or {@link #defaultProfile} and adjust
 * with the {@code with*} methods.
 *
 * @param host             address to bind; 127.0.0.1 unless the user asks otherwise
 * @param port             TCP port, 0 for a free one
 * @param servedModelNames names a request's "model" may use (any other gets 404, as vLLM answers;
 *                         {@value #ANY_MODEL} among them accepts every name); the first is listed by
 *                         /v1/models and echoed in every chunk
 * @param latencyModel     decides when tokens are sent; serves one server (closed with it)
 * @param defaultMaxTokens tokens generated when a request gives neither max_tokens nor max_completion_tokens
 * @param ioThreads        Netty event loops serving connections
 * @param sendListener     optional log of each event's send time ({@link SendListener#NONE} to skip)
 * @param promptCounter    counts prompt tokens: the load generator's tokenizer, or whitespace words
 * @param maxModelLen      context length: longer prompts (plus max_tokens) get 400
 * @param outputLengths    output length of requests without ignore_eos
 * @param faults           faults injected at random, beside those asked for by header
 * @param tls              serve https with a self-signed certificate made at start (for clients' https
 *                         and {@code --insecure}), instead of plain http
 * @param loraModules      LoRA adapter names served beside the model: a request may name them, and
 *                         /v1/models lists them after the served names with the first as their parent,
 *                         as vLLM lists adapters
 * @param metricsStyle     whose metric names {@code GET /metrics} uses (vLLM's or SGLang's)
 * @param reasoningTokens  how many of a streamed chat response's first tokens are a reasoning model's
 *                         thinking ({@code delta.reasoning_content}, counted in
 *                         {@code usage.completion_tokens_details.reasoning_tokens}); 0 for none
 * @param promptTokensDetails vLLM's {@code --enable-prompt-tokens-details}: OpenAI usage carries
 *                         {@code prompt_tokens_details.cached_tokens}, the prompt tokens the engine's prefix
 *                         cache held (the profiles with an engine model; the deterministic one has no cache)
 */
@RecordBuilder
public record SimulatorConfig(
        String host,
        int port,
        List<String> servedModelNames,
        LatencyModel latencyModel,
        int defaultMaxTokens,
        int ioThreads,
        SendListener sendListener,
        PromptCounter promptCounter,
        int maxModelLen,
        OutputLengths outputLengths,
        FaultPlan faults,
        boolean tls,
        List<String> loraModules,
        MetricsStyle metricsStyle,
        int reasoningTokens,
        boolean promptTokensDetails)
        implements SimulatorConfigBuilder.With {

    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final String DEFAULT_MODEL = "tokenpulse-sim";
    /** A served name that accepts any model name. */
    public static final String ANY_MODEL = "*";
    /** What the default profile's engine holds, as in {@link EngineProfile#DEFAULT}. */
    public static final int DEFAULT_MAX_MODEL_LEN = 131_072;

    public SimulatorConfig {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(latencyModel, "latencyModel");
        Objects.requireNonNull(sendListener, "sendListener");
        Objects.requireNonNull(promptCounter, "promptCounter");
        Objects.requireNonNull(outputLengths, "outputLengths");
        Objects.requireNonNull(faults, "faults");
        Objects.requireNonNull(metricsStyle, "metricsStyle");
        servedModelNames = List.copyOf(servedModelNames);
        loraModules = List.copyOf(loraModules);
        if (loraModules.stream().anyMatch(String::isBlank)) {
            throw new IllegalArgumentException("LoRA module names must not be blank; got " + loraModules);
        }
        if (servedModelNames.isEmpty() || servedModelNames.stream().anyMatch(String::isBlank)) {
            throw new IllegalArgumentException(
                    "give at least one served model name, none blank; got " + servedModelNames);
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 0..65535, got " + port);
        }
        if (defaultMaxTokens < 1) {
            throw new IllegalArgumentException("default max tokens must be >= 1, got " + defaultMaxTokens);
        }
        if (ioThreads < 1) {
            throw new IllegalArgumentException("io threads must be >= 1, got " + ioThreads);
        }
        if (reasoningTokens < 0) {
            throw new IllegalArgumentException("reasoning tokens must be >= 0, got " + reasoningTokens);
        }
        if (maxModelLen < 2) {
            throw new IllegalArgumentException("max model length must be >= 2, got " + maxModelLen);
        }
    }

    /**
     * A deterministic server on a free port of 127.0.0.1: fixed TTFT, fixed gap between tokens, every
     * stream runs to max_tokens, any model name accepted.
     */
    public static SimulatorConfig deterministic(Duration ttft, Duration gap) {
        return new SimulatorConfig(
                DEFAULT_HOST,
                0,
                List.of(DEFAULT_MODEL, ANY_MODEL),
                DeterministicModel.of(ttft, gap),
                16,
                Runtime.getRuntime().availableProcessors(),
                SendListener.NONE,
                PromptCounter.WHITESPACE,
                DEFAULT_MAX_MODEL_LEN,
                OutputLengths.UNTIL_MAX_TOKENS,
                FaultPlan.NONE,
                false,
                List.of(),
                MetricsStyle.VLLM,
                0,
                false);
    }

    /**
     * A continuous-batching server calibrated to vLLM's published load sweep ({@link EngineProfile#DEFAULT}) on a free
     * port of 127.0.0.1, serving {@code servedModelName}, with every simulated time divided by
     * {@code speedup} (1 for real time).
     */
    public static SimulatorConfig defaultProfile(String servedModelName, double speedup) {
        return batching(servedModelName, EngineProfile.DEFAULT.speedUp(speedup));
    }

    /** A continuous-batching server with the given engine on a free port of 127.0.0.1. */
    public static SimulatorConfig batching(String servedModelName, EngineProfile profile) {
        return new SimulatorConfig(
                DEFAULT_HOST,
                0,
                List.of(servedModelName),
                new BatchingModel(profile),
                16,
                Runtime.getRuntime().availableProcessors(),
                SendListener.NONE,
                PromptCounter.WHITESPACE,
                profile.maxModelLen(),
                OutputLengths.DEFAULT,
                FaultPlan.NONE,
                false,
                List.of(),
                MetricsStyle.VLLM,
                0,
                false);
    }

    /** The first served name: listed by /v1/models and echoed in every chunk. */
    public String modelName() {
        return servedModelNames.get(0);
    }

    /** Whether a request may name {@code model}. */
    boolean serves(String model) {
        return servedModelNames.contains(model) || loraModules.contains(model) || servedModelNames.contains(ANY_MODEL);
    }

    /** Counts prompt tokens with {@code tokenizer} (and its chat template for chat requests). */
    public SimulatorConfig withTokenizer(Tokenizer tokenizer) {
        return withPromptCounter(PromptCounter.of(tokenizer));
    }
}
