package io.tokenpulse.cli;

import io.tokenpulse.producer.backend.BackendSettings;
import java.util.List;
import picocli.CommandLine.Option;

/** vLLM's flags that go into every request's sampling parameters. */
final class SamplingOptions {

    @Option(names = "--use-beam-search")
    boolean useBeamSearch;

    @Option(
            names = "--logprobs",
            description = "Number of logprobs-per-token to compute & return as part of the request.")
    Integer logprobs;

    @Option(names = "--ignore-eos", description = "Set ignore_eos flag when sending the benchmark request.")
    boolean ignoreEos;

    @Option(names = "--top-p")
    Double topP;

    @Option(names = "--top-k")
    Integer topK;

    @Option(names = "--min-p")
    Double minP;

    @Option(names = "--temperature")
    Double temperature;

    @Option(
            names = "--lora-modules",
            arity = "1..*",
            description = "LoRA module names; each request picks one at random.")
    List<String> loraModules;

    /** The sampling parameters; flags that would change what is sent but are not built yet are refused, never ignored. */
    BackendSettings.Sampling sampling() {
        if (useBeamSearch) {
            throw UserError.usage("--use-beam-search is not supported yet");
        }
        if (loraModules != null) {
            throw UserError.usage("--lora-modules is not supported yet");
        }
        return new BackendSettings.Sampling(temperature, topP, topK, minP, logprobs, ignoreEos);
    }
}
