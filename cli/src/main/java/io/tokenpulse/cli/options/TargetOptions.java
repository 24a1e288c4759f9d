package io.tokenpulse.cli.options;

import io.tokenpulse.producer.LoadSettings;
import io.tokenpulse.producer.ServedModels;
import io.tokenpulse.producer.backend.BackendSettings;
import io.tokenpulse.producer.backend.Backends;
import io.tokenpulse.runner.UserError;
import io.tokenpulse.tokenizers.Tokenizer;
import io.tokenpulse.tokenizers.TokenizerLoader;
import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * vLLM's flags that say where requests go, which model and tokenizer they name, and how long the
 * server may take to be ready.
 */
public final class TargetOptions {

    @Option(
            names = "--backend",
            defaultValue = "vllm",
            description =
                    "One of: ${COMPLETION-CANDIDATES}. "
                            + "openai-audio sends no prompt text but the clip of each hf ASR row, or a synthetic 5 s WAV (440 Hz tone, 16 kHz) with every prompt of any text dataset, e.g. random.",
            completionCandidates = BackendNames.class)
    String backend;

    /** {@code --backend}. */
    public String backend() {
        return backend;
    }

    @Option(names = "--base-url", description = "Server or API base url if not using http host and port.")
    public String baseUrl;

    @Option(
            names = "--host",
            defaultValue = "127.0.0.1",
            description = "Server host, used when --base-url is not given (default: ${DEFAULT-VALUE}).")
    String host;

    @Option(
            names = "--port",
            defaultValue = "8000",
            description = "Server port, used when --base-url is not given (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(
            names = "--endpoint",
            defaultValue = "/v1/completions",
            description = "API endpoint (default: ${DEFAULT-VALUE}; for --backend openai-responses /v1/responses, "
                    + "for anthropic-messages /v1/messages).")
    String endpoint;

    /** The command this mixin is part of, to tell a given --endpoint from its default. */
    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    @Option(
            names = "--model",
            description =
                    "Name of the model. If not given: with --simulate facebook/opt-125m, else the first model the server lists at /v1/models (its id is sent, its root names the tokenizer).")
    String model;

    @Option(names = "--tokenizer", description = "Name or path of the tokenizer, if not using the default tokenizer.")
    String tokenizer;

    @Option(
            names = "--trust-remote-code",
            description =
                    "Trust remote code from Hugging Face (vLLM's flag, accepted for its command lines: TokenPulse reads a tokenizer's tokenizer.json and runs no model code).")
    boolean trustRemoteCode;

    @Option(
            names = "--tokenizer-mode",
            defaultValue = "auto",
            description = "auto or hf: the tokenizer's tokenizer.json; slow: the same file (Hugging Face keeps a slow"
                    + " tokenizer and its fast one token for token equal), so a slow-only tokenizer without"
                    + " tokenizer.json is refused; custom: the tokenizer --tokenizer names, which must be given;"
                    + " mistral: refused, mistral_common's format cannot be read here (default: ${DEFAULT-VALUE}).")
    String tokenizerMode;

    @Option(names = "--served-model-name", description = "The model name used in the API (default: --model).")
    String servedModelName;

    @Option(names = "--header", paramLabel = "KEY=VALUE", description = "Extra HTTP header, repeatable.")
    Map<String, String> headers = new LinkedHashMap<>();

    @Option(
            names = "--insecure",
            description =
                    "Do not check the certificate (nor the host name) of an https --base-url, e.g. a server with a self-signed certificate.")
    boolean insecure;

    @Option(
            names = "--ready-check-timeout-sec",
            defaultValue = "600",
            description =
                    "How long to wait for the server's /health to answer 200 before giving up, in s (vLLM's flag; default: ${DEFAULT-VALUE}).")
    int readyCheckTimeoutSec;

    /** How long the server's /health may take to answer 200 (--ready-check-timeout-sec). */
    public Duration readyTimeout() {
        return Duration.ofSeconds(readyCheckTimeoutSec);
    }

    /** With --simulate and no --model: a GPT-2-family name, whose tokenizer works offline. */
    public static final String SIMULATED_MODEL = "facebook/opt-125m";

    /**
     * --model; else the simulator's model with --simulate; else, as current vLLM, the first model the
     * server lists (whose id becomes the served name). A server that cannot say is a usage error naming --model.
     */
    public String modelId(boolean simulate, PrintStream out) throws InterruptedException {
        if (model != null) {
            return model;
        }
        if (simulate) {
            return SIMULATED_MODEL;
        }
        try {
            ServedModels.First first =
                    ServedModels.first(baseUrl(), headers, System.getenv("OPENAI_API_KEY"), insecure, out);
            servedModelName = first.name();
            return first.modelId();
        } catch (IllegalArgumentException e) {
            throw UserError.usage(e.getMessage());
        }
    }

    public URI baseUrl() {
        try {
            return URI.create(baseUrl != null ? baseUrl : "http://" + host + ":" + port);
        } catch (IllegalArgumentException e) {
            throw UserError.usage("--base-url is not a URL: " + e.getMessage());
        }
    }

    /** --tokenizer, else the model's own. */
    public String tokenizerId(String modelId) {
        return tokenizer == null ? modelId : tokenizer;
    }

    /** The tokenizer the load generator (and a simulator) count with; a bad one is a usage error. */
    public Tokenizer loadTokenizer(String modelId) {
        checkTokenizerMode();
        try {
            return TokenizerLoader.fromEnvironment().load(tokenizerId(modelId));
        } catch (IllegalArgumentException e) {
            throw UserError.usage(e.getMessage());
        }
    }

    /** --served-model-name, else the model. */
    public String servedName(String modelId) {
        return servedModelName != null ? servedModelName : modelId;
    }

    /**
     * Sets --endpoint to the path of the API the backend speaks when --endpoint was not given
     * (vLLM's {@code /v1/completions} stays the default of vLLM's backends), so the Namespace line
     * shows the path requests go to. Idempotent.
     */
    public void useBackendsEndpointUnlessGiven() {
        CommandLine.ParseResult parsed = command == null || command.commandLine() == null
                ? null
                : command.commandLine().getParseResult();
        // not parsed (set in code): only vLLM's default value counts as "not given"
        boolean given = parsed != null
                ? parsed.hasMatchedOption("--endpoint")
                : endpoint != null && !endpoint.equals(Backends.defaultEndpoint("vllm"));
        if (!given) {
            endpoint = Backends.defaultEndpoint(backend);
        }
    }

    /** The target at {@code simulatorBase} when a simulator runs, else at --base-url or --host/--port. */
    public LoadSettings.Target target(String modelId, URI simulatorBase, BackendSettings.Sampling sampling) {
        useBackendsEndpointUnlessGiven();
        URI base = simulatorBase != null ? simulatorBase : baseUrl();
        return new LoadSettings.Target(
                backend,
                base,
                endpoint,
                modelId,
                servedModelName,
                System.getenv("OPENAI_API_KEY"),
                headers,
                sampling,
                insecure);
    }

    /** vLLM's tokenizer modes, as far as a tokenizer.json can honour them. */
    private void checkTokenizerMode() {
        switch (tokenizerMode) {
            case "auto", "hf", "slow" -> {}
            case "custom" -> {
                if (tokenizer == null) {
                    throw UserError.usage("--tokenizer-mode custom takes the tokenizer --tokenizer names;"
                            + " pass --tokenizer PATH-OR-ID");
                }
            }
            case "mistral" ->
                throw UserError.usage("--tokenizer-mode mistral needs mistral_common's tokenizer (tekken.json or"
                        + " tokenizer.model.v*), which TokenPulse cannot read; use --tokenizer-mode auto with the"
                        + " model's Hugging Face tokenizer.json");
            default ->
                throw UserError.usage("unknown --tokenizer-mode " + tokenizerMode
                        + "; use auto, hf, slow or custom (mistral is refused)");
        }
    }

    /** vLLM's backend list, for the help text. */
    static final class BackendNames extends ArrayList<String> {
        BackendNames() {
            super(Backends.names());
        }
    }
}
