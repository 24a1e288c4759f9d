package io.tokenpulse.cli.options;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tokenpulse.producer.LoraAssignment;
import io.tokenpulse.producer.backend.BackendSettings;
import io.tokenpulse.runner.UserError;
import java.util.List;
import picocli.CommandLine.Option;

/** vLLM's flags that go into every request's sampling parameters. */
public final class SamplingOptions {

    @Option(
            names = "--use-beam-search",
            description = "Accepted and ignored, as vLLM's client does: nothing about beam search is sent.")
    boolean useBeamSearch;

    @Option(
            names = "--logprobs",
            description = "Number of logprobs-per-token to compute & return as part of the request.")
    Integer logprobs;

    @Option(names = "--ignore-eos", description = "Set ignore_eos flag when sending the benchmark request.")
    boolean ignoreEos;

    @Option(
            names = "--top-p",
            description = "Top-p sampling parameter; OpenAI-compatible backends only (default: the server's).")
    Double topP;

    @Option(
            names = "--top-k",
            description = "Top-k sampling parameter; OpenAI-compatible backends only (default: the server's).")
    Integer topK;

    @Option(
            names = "--min-p",
            description = "Min-p sampling parameter; OpenAI-compatible backends only (default: the server's).")
    Double minP;

    @Option(
            names = "--temperature",
            description =
                    "Temperature sampling parameter; OpenAI-compatible backends only. Not given: greedy decoding (temperature 0.0), as vLLM sends it.")
    Double temperature;

    @Option(
            names = "--frequency-penalty",
            description = "Frequency penalty sampling parameter; OpenAI-compatible backends only.")
    Double frequencyPenalty;

    @Option(
            names = "--presence-penalty",
            description = "Presence penalty sampling parameter; OpenAI-compatible backends only.")
    Double presencePenalty;

    @Option(
            names = "--repetition-penalty",
            description = "Repetition penalty sampling parameter; OpenAI-compatible backends only.")
    Double repetitionPenalty;

    @Option(
            names = "--extra-body",
            paramLabel = "JSON",
            description =
                    "A JSON object merged into every request body, replacing keys of the same name, e.g. '{\"chat_template_kwargs\":{\"enable_thinking\":false}}'; OpenAI-compatible backends only.")
    String extraBody;

    @Option(
            names = "--lora-modules",
            arity = "1..*",
            description =
                    "LoRA adapter names the server was started with; each request names one as its model (--lora-assignment), and the report adds a per-model section.")
    public List<String> loraModules;

    @Option(
            names = "--lora-assignment",
            defaultValue = "random",
            description =
                    "How requests are spread over --lora-modules: random (drawn with --seed) or round-robin (default: ${DEFAULT-VALUE}).")
    String loraAssignment;

    /** --lora-modules with --lora-assignment, or null without adapters; a bad value is a usage error. */
    public LoraAssignment lora() {
        try {
            LoraAssignment.Strategy strategy = LoraAssignment.Strategy.parse(loraAssignment);
            return loraModules == null ? null : new LoraAssignment(loraModules, strategy);
        } catch (IllegalArgumentException e) {
            throw UserError.usage(e.getMessage());
        }
    }

    /** The sampling parameters and the extra body, checked. */
    public BackendSettings.Sampling sampling() {
        ObjectNode body = extraBody();
        try {
            return new BackendSettings.Sampling(
                    temperature,
                    topP,
                    topK,
                    minP,
                    logprobs,
                    ignoreEos,
                    frequencyPenalty,
                    presencePenalty,
                    repetitionPenalty,
                    body);
        } catch (IllegalArgumentException e) {
            throw UserError.usage(e.getMessage());
        }
    }

    /** --extra-body as a JSON object, or null; anything else is a usage error before the run. */
    private ObjectNode extraBody() {
        if (extraBody == null) {
            return null;
        }
        JsonNode parsed;
        try {
            parsed = new ObjectMapper().readTree(extraBody);
        } catch (JsonProcessingException e) {
            throw UserError.usage("--extra-body is not valid JSON ("
                    + e.getOriginalMessage().lines().findFirst().orElse("")
                    + "); pass a JSON object, e.g. '{\"chat_template_kwargs\":{\"enable_thinking\":false}}'");
        }
        if (!(parsed instanceof ObjectNode object)) {
            throw UserError.usage("--extra-body must be a JSON object ({...}), got " + extraBody);
        }
        return object;
    }
}
