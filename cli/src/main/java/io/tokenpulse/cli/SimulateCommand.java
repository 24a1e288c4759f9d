package io.tokenpulse.cli;

import io.tokenpulse.cli.options.SendLogOption;
import io.tokenpulse.cli.options.SimulatorEngineOptions;
import io.tokenpulse.cli.options.SimulatorFaultOptions;
import io.tokenpulse.runner.UserError;
import io.tokenpulse.simulator.MetricsStyle;
import io.tokenpulse.simulator.SendLogFile;
import io.tokenpulse.simulator.SimulatorConfig;
import io.tokenpulse.simulator.SimulatorServer;
import io.tokenpulse.simulator.engine.EngineProfile;
import io.tokenpulse.simulator.engine.OutputLengths;
import io.tokenpulse.tokenizers.TokenizerLoader;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
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
        description = "Serve a simulated LLM on 127.0.0.1 until Ctrl-C: OpenAI completions, chat and Responses "
                + "(/v1/responses), Anthropic Messages (/v1/messages), TGI, Triton, transcriptions; streaming.")
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

    /** The batching engine's shape: batch size, chunked prefill, context, KV cache, prefix cache, CPU. */
    @Mixin
    SimulatorEngineOptions engine;

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

    /** The faults: error answers, resets, stalls, broken events. */
    @Mixin
    SimulatorFaultOptions faults;

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
            names = "--enable-prompt-tokens-details",
            description = "As vLLM's flag: OpenAI usage carries prompt_tokens_details.cached_tokens, the prompt's "
                    + "leading 16-token blocks an earlier prompt of this server already had (a prefix-cache hit), "
                    + "so bench reports a prefix cache hit rate.")
    boolean promptTokensDetails;

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

    @Mixin
    SendLogOption sendLog;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        SimulatorConfig config = config();
        SendLogFile log = sendLog.open();
        if (log != null) {
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
        PrintWriter err = spec.commandLine().getErr();
        // Ctrl-C and SIGTERM run shutdown hooks: close the port before the JVM goes, then the send log.
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            server.close();
                            if (log != null) {
                                SendLogOption.close(log, err);
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
        if (tokenizer == null) {
            out.println(
                    "Prompt tokens are counted as whitespace-separated words; give --tokenizer to count them as bench does.");
        }
        out.println("Ctrl-C stops the simulator. In another terminal, try:");
        out.println("  " + tryCommand(server.baseUri().toString(), tls, config.modelName(), tokenizer));
        out.flush();
        stopped.await();
        return 0;
    }

    /**
     * The bench command the simulator suggests: one a user can paste in the repository's root, with a
     * modest load (100 prompts at 10 requests/s, about 10 s) instead of bench's 1000 at an infinite rate.
     */
    static String tryCommand(String baseUrl, boolean tls, String model, String tokenizer) {
        return "./tokenpulse bench --base-url " + baseUrl + (tls ? " --insecure" : "") + " --model " + model
                + (tokenizer == null ? "" : " --tokenizer " + tokenizer)
                + " --dataset-name random --random-input-len 80 --random-output-len 60 --ignore-eos"
                + " --num-prompts 100 --request-rate 10";
    }

    /** The server's configuration from the options; bad values are usage errors. */
    SimulatorConfig config() {
        try {
            SimulatorConfig config = switch (profile) {
                case DETERMINISTIC -> {
                    if (engine.cpuPerTokenUs != null) {
                        throw new IllegalArgumentException("--cpu-per-token-us needs --profile cpu or default: the "
                                + "deterministic profile has no engine steps to compute");
                    }
                    yield SimulatorConfig.deterministic(millis(ttftMs / speedup), millis(gapMs / speedup))
                            .withServedModelNames(models);
                }
                case DEFAULT, CPU ->
                    SimulatorConfig.batching(
                                    models.get(0),
                                    engine.engine(
                                            profile == Profile.CPU ? EngineProfile.CPU : EngineProfile.DEFAULT,
                                            speedup))
                            .withServedModelNames(models)
                            .withOutputLengths(new OutputLengths(meanOutputLen, seed));
            };
            if (engine.maxModelLen != null) {
                config = config.withMaxModelLen(engine.maxModelLen);
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
                    .withPromptTokensDetails(promptTokensDetails)
                    .withFaults(faults.plan(seed));
        } catch (IllegalArgumentException e) {
            throw UserError.usage(e.getMessage());
        }
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
