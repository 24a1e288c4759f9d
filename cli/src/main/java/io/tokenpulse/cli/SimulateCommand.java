package io.tokenpulse.cli;

import io.tokenpulse.runner.UserError;
import io.tokenpulse.simulator.MetricsStyle;
import io.tokenpulse.simulator.SendLogFile;
import io.tokenpulse.simulator.SimulatorConfig;
import io.tokenpulse.simulator.SimulatorServer;
import io.tokenpulse.simulator.engine.EngineProfile;
import io.tokenpulse.simulator.engine.EngineProfileBuilder;
import io.tokenpulse.simulator.engine.OutputLengths;
import io.tokenpulse.simulator.faults.FaultPlan;
import io.tokenpulse.tokenizers.TokenizerLoader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code tokenpulse simulate}: the serving simulator in the foreground, an OpenAI-compatible
 * stand-in for vLLM to point {@code tokenpulse bench} at (see docs/simulator.md).
 */
@Command(
        name = "simulate",
        sortOptions = false,
        mixinStandardHelpOptions = true,
        description = "Serve a simulated LLM (OpenAI completions and chat, streaming) on 127.0.0.1 until Ctrl-C.")
final class SimulateCommand implements Callable<Integer> {

    enum Profile {
        DEFAULT,
        DETERMINISTIC,
        CPU
    }

    @Spec
    CommandSpec spec;

    @Option(names = "--host", defaultValue = "127.0.0.1", description = "Address to bind (default: ${DEFAULT-VALUE}).")
    String host;

    @Option(
            names = "--port",
            defaultValue = "8000",
            description = "Port (default: ${DEFAULT-VALUE}; 0 for a free one).")
    int port;

    @Option(
            names = "--model",
            defaultValue = "facebook/opt-125m",
            split = ",",
            description = "Served model name(s); requests naming another get 404 (default: ${DEFAULT-VALUE}).")
    List<String> models;

    @Option(
            names = "--profile",
            defaultValue = "default",
            converter = ProfileConverter.class,
            description = "default: continuous batching calibrated to a real vLLM server; "
                    + "deterministic: fixed --ttft-ms and --gap-ms whatever the load; "
                    + "cpu: an engine that computes every step on this host's CPU, 8 sequences a step, "
                    + "like llama.cpp (--cpu-per-token-us) (default: ${DEFAULT-VALUE}).")
    Profile profile;

    @Option(
            names = "--ttft-ms",
            defaultValue = "100",
            description = "Deterministic profile: time to first token (default: ${DEFAULT-VALUE}).")
    double ttftMs;

    @Option(
            names = "--gap-ms",
            defaultValue = "20",
            description = "Deterministic profile: time between tokens (default: ${DEFAULT-VALUE}).")
    double gapMs;

    @Option(
            names = "--max-num-seqs",
            description = "Default and cpu profiles: most requests in the running batch (default: 256; cpu: 8).")
    Integer maxNumSeqs;

    @Option(
            names = "--cpu-per-token-us",
            paramLabel = "US",
            description = "Default and cpu profiles: CPU time the engine thread computes (not sleeps) per token of "
                    + "a step, so a step lasts at least that times its tokens and runs slower when other "
                    + "processes take the core (default: 0; cpu: 1250, ~800 tokens/s at 8 sequences on a free core).")
    Double cpuPerTokenUs;

    @Option(
            names = "--no-chunked-prefill",
            description = "Default and cpu profiles: prefill whole prompts in steps of their own.")
    boolean noChunkedPrefill;

    @Option(names = "--max-model-len", description = "Context length; longer prompts get 400 (default: 131072).")
    Integer maxModelLen;

    @Option(
            names = "--kv-cache-tokens",
            paramLabel = "N",
            description =
                    "Default and cpu profiles: tokens the KV cache holds, at least --max-model-len; running requests "
                            + "beyond it are preempted and recomputed, as vLLM does (default: --max-model-len).")
    Integer kvCacheTokens;

    @Option(
            names = "--no-prefix-cache",
            description =
                    "Default and cpu profiles: no prefix caching (vLLM's --no-enable-prefix-caching): prompts that "
                            + "share a prefix are prefilled in full every time.")
    boolean noPrefixCache;

    @Option(
            names = "--speedup",
            defaultValue = "1",
            description = "Divide every simulated time by this factor (default: ${DEFAULT-VALUE}).")
    double speedup;

    @Option(
            names = "--tokenizer",
            description = "Count prompt tokens with this tokenizer (path or model id, as bench takes it); "
                    + "default: whitespace-separated words.")
    String tokenizer;

    @Option(
            names = "--mean-output-len",
            defaultValue = "128",
            description = "Mean output length of requests without ignore_eos (default: ${DEFAULT-VALUE}).")
    int meanOutputLen;

    @Option(
            names = "--seed",
            defaultValue = "0",
            description = "Seed of output lengths and faults (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--fault-500-rate", defaultValue = "0", description = "Probability of an HTTP 500 answer.")
    double status500Rate;

    @Option(names = "--fault-503-rate", defaultValue = "0", description = "Probability of an HTTP 503 answer.")
    double status503Rate;

    @Option(names = "--fault-429-rate", defaultValue = "0", description = "Probability of an HTTP 429 answer.")
    double status429Rate;

    @Option(
            names = "--retry-after",
            defaultValue = "1",
            description = "Retry-After seconds of a 429 (default: ${DEFAULT-VALUE}).")
    int retryAfterSeconds;

    @Option(
            names = "--fault-reset-rate",
            defaultValue = "0",
            description = "Probability of a connection reset mid-stream.")
    double resetRate;

    @Option(
            names = "--reset-after",
            defaultValue = "3",
            description = "Events sent before a reset (default: ${DEFAULT-VALUE}).")
    int resetAfterEvents;

    @Option(
            names = "--fault-stall-rate",
            defaultValue = "0",
            description = "Probability of a stall after the first event.")
    double stallRate;

    @Option(names = "--stall-ms", defaultValue = "5000", description = "Length of a stall (default: ${DEFAULT-VALUE}).")
    long stallMs;

    @Option(
            names = "--fault-malformed-rate",
            defaultValue = "0",
            description = "Probability of an event with invalid JSON.")
    double malformedRate;

    @Option(
            names = "--fault-oversized-rate",
            defaultValue = "0",
            description = "Probability of an event larger than 10 MiB.")
    double oversizedRate;

    @Option(
            names = "--fault-split-utf8-rate",
            defaultValue = "0",
            description = "Probability that every event is written in two parts split inside a UTF-8 character.")
    double splitUtf8Rate;

    @Option(names = "--fault-no-done-rate", defaultValue = "0", description = "Probability that [DONE] is left out.")
    double noDoneRate;

    @Option(
            names = "--tokens-per-event",
            defaultValue = "1",
            description = "Tokens in each streamed event (default: ${DEFAULT-VALUE}).")
    int tokensPerEvent;

    @Option(names = "--role-only-first", description = "Start every stream with an event that carries no text.")
    boolean roleOnlyFirst;

    @Option(
            names = "--lora-modules",
            arity = "1..*",
            description =
                    "LoRA adapter names served beside the model: requests may name them, and /v1/models lists them with the first --model as their parent.")
    List<String> loraModules = List.of();

    @Option(
            names = "--reasoning-tokens",
            paramLabel = "N",
            defaultValue = "0",
            description = "Act as a reasoning model: the first N tokens of every streamed chat response are "
                    + "thinking (delta.reasoning_content), counted in usage.completion_tokens_details.reasoning_tokens "
                    + "and part of max_tokens, as vLLM's reasoning parser sends them (default: ${DEFAULT-VALUE}).")
    int reasoningTokens;

    @Option(
            names = "--tls",
            description =
                    "Serve https with a self-signed certificate made at start (by the JDK's keytool); clients must skip its check, e.g. bench --insecure.")
    boolean tls;

    @Option(
            names = "--metrics-style",
            paramLabel = "STYLE",
            defaultValue = "vllm",
            description = "Metric names of GET /metrics: vllm (vllm:num_requests_running, ...) or sglang "
                    + "(sglang:num_running_reqs, ...) (default: ${DEFAULT-VALUE}).")
    String metricsStyle;

    @Option(
            names = "--send-log",
            paramLabel = "FILE",
            description = "Write every streamed event's send time to FILE as CSV (request_id,event,due_ns,sent_ns,"
                    + "sent_unix_ns): ground truth for a client's timestamps, e.g. with --profile deterministic.")
    Path sendLog;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        SimulatorConfig config = config();
        SendLogFile log = null;
        if (sendLog != null) {
            try {
                log = SendLogFile.open(sendLog);
            } catch (IOException e) {
                throw UserError.failure("cannot write the send log " + sendLog + " (" + e.getMessage()
                        + "); give --send-log a writable file");
            }
            config = config.withSendListener(log);
        }
        SimulatorServer server;
        try {
            server = SimulatorServer.start(config);
        } catch (IllegalStateException e) {
            throw UserError.failure(e.getMessage()); // the --tls certificate could not be made
        } catch (RuntimeException e) {
            // Netty reports a taken port as an unchecked native IOException
            throw UserError.failure("cannot listen on " + host + ":" + port + ": " + e.getMessage());
        }
        CountDownLatch stopped = new CountDownLatch(1);
        SendLogFile sendLogFile = log;
        PrintWriter err = spec.commandLine().getErr();
        // Ctrl-C and SIGTERM run shutdown hooks: close the port before the JVM goes, then the send log.
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            server.close();
                            if (sendLogFile != null) {
                                closeSendLog(sendLogFile, err);
                            }
                            stopped.countDown();
                        },
                        "simulate-shutdown"));
        if (log != null) {
            out.println("Send log: " + log.path());
        }
        out.println("Simulator serving " + String.join(", ", config.servedModelNames())
                + (config.loraModules().isEmpty() ? "" : " (LoRA: " + String.join(", ", config.loraModules()) + ")")
                + " at " + server.baseUri()
                + " (profile " + profile.name().toLowerCase() + (speedup == 1 ? "" : ", speedup " + speedup) + ")");
        out.println(
                "Try: tokenpulse bench --base-url " + server.baseUri() + (tls ? " --insecure" : "") + " --model "
                        + config.modelName()
                        + " --dataset-name random --random-input-len 80 --random-output-len 60 --ignore-eos   (Ctrl-C stops it)");
        out.flush();
        stopped.await();
        return 0;
    }

    private static void closeSendLog(SendLogFile log, PrintWriter err) {
        try {
            log.close();
        } catch (UncheckedIOException e) {
            err.println("simulate: " + e.getMessage());
        }
        if (log.dropped() > 0) {
            err.println("simulate: " + log.dropped() + " events not in the send log " + log.path()
                    + " (its writer fell " + SendLogFile.MAX_QUEUED + " records behind or the file failed)");
        }
        err.flush();
    }

    /** The server's configuration from the options; bad values are usage errors. */
    SimulatorConfig config() {
        try {
            SimulatorConfig config = switch (profile) {
                case DETERMINISTIC -> {
                    if (cpuPerTokenUs != null) {
                        throw new IllegalArgumentException("--cpu-per-token-us needs --profile cpu or default: the "
                                + "deterministic profile has no engine steps to compute");
                    }
                    yield SimulatorConfig.deterministic(millis(ttftMs / speedup), millis(gapMs / speedup))
                            .withServedModelNames(models);
                }
                case DEFAULT, CPU ->
                    SimulatorConfig.batching(models.get(0), engine())
                            .withServedModelNames(models)
                            .withOutputLengths(new OutputLengths(meanOutputLen, seed));
            };
            if (maxModelLen != null) {
                config = config.withMaxModelLen(maxModelLen);
            }
            if (tokenizer != null) {
                config = config.withTokenizer(TokenizerLoader.fromEnvironment().load(tokenizer));
            }
            return config.withHost(host)
                    .withPort(port)
                    .withMetricsStyle(MetricsStyle.named(metricsStyle))
                    .withTls(tls)
                    .withLoraModules(loraModules)
                    .withReasoningTokens(reasoningTokens)
                    .withFaults(new FaultPlan(
                            status500Rate,
                            status503Rate,
                            status429Rate,
                            retryAfterSeconds,
                            resetRate,
                            resetAfterEvents,
                            stallRate,
                            stallMs,
                            malformedRate,
                            oversizedRate,
                            splitUtf8Rate,
                            noDoneRate,
                            tokensPerEvent,
                            roleOnlyFirst,
                            seed));
        } catch (IllegalArgumentException e) {
            throw UserError.usage(e.getMessage());
        }
    }

    private EngineProfile engine() {
        EngineProfile base = profile == Profile.CPU ? EngineProfile.CPU : EngineProfile.DEFAULT;
        int contextLength = maxModelLen == null ? base.maxModelLen() : maxModelLen;
        EngineProfile engine = EngineProfileBuilder.builder(base)
                .maxModelLen(contextLength)
                .kvCacheTokens(kvCacheTokens == null ? contextLength : kvCacheTokens)
                .prefixCaching(!noPrefixCache)
                .build();
        if (maxNumSeqs != null) {
            engine = engine.withMaxNumSeqs(maxNumSeqs);
        }
        if (noChunkedPrefill) {
            engine = engine.withChunkedPrefill(false);
        }
        if (cpuPerTokenUs != null) {
            if (!(cpuPerTokenUs >= 0) || cpuPerTokenUs.isInfinite()) {
                throw new IllegalArgumentException(
                        "--cpu-per-token-us must be a finite number >= 0, got " + cpuPerTokenUs);
            }
            engine = engine.withCpuUsPerToken(cpuPerTokenUs);
        }
        return engine.speedUp(speedup);
    }

    private static Duration millis(double ms) {
        if (!(ms >= 0) || Double.isInfinite(ms)) {
            throw new IllegalArgumentException(
                    "--ttft-ms, --gap-ms and --speedup must give finite times >= 0, got " + ms + " ms");
        }
        return Duration.ofNanos(Math.round(ms * 1e6));
    }

    /** Accepts the profile names in lower case, as the help shows them. */
    static final class ProfileConverter implements ITypeConverter<Profile> {
        @Override
        public Profile convert(String value) {
            try {
                return Profile.valueOf(value.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(
                        "'" + value + "' is not a profile; use default, deterministic or cpu");
            }
        }
    }
}
