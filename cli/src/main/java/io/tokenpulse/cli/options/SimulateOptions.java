package io.tokenpulse.cli.options;

import io.tokenpulse.runner.UserError;
import io.tokenpulse.simulator.SimulatorConfig;
import io.tokenpulse.simulator.SimulatorServer;
import io.tokenpulse.simulator.engine.EngineProfile;
import io.tokenpulse.simulator.engine.EngineProfileBuilder;
import io.tokenpulse.simulator.faults.FaultPlan;
import io.tokenpulse.tokenizers.Tokenizer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** {@code --simulate} and its options: the built-in simulator as the target, in this process. */
public final class SimulateOptions {

    @Option(names = "--simulate", description = "Start the built-in simulator as the target.")
    public boolean simulate;

    @Option(
            names = "--simulate-profile",
            defaultValue = "default",
            description =
                    "Simulator behaviour with --simulate: default (continuous batching calibrated to vLLM's load sweep) or deterministic (50 ms TTFT, 20 ms between tokens) (default: ${DEFAULT-VALUE}).")
    String simulateProfile;

    @Option(
            names = "--simulate-speedup",
            defaultValue = "1.0",
            description = "With --simulate: divide every simulated time by this factor (default: ${DEFAULT-VALUE}).")
    double simulateSpeedup;

    @Option(
            names = "--simulate-kv-cache-tokens",
            paramLabel = "N",
            description = "With --simulate (default profile): the engine's KV cache holds N tokens, and so does its "
                    + "context (at most 131072); running requests beyond it are preempted and recomputed "
                    + "(simulate --kv-cache-tokens) (default: 131072).")
    Integer simulateKvCacheTokens;

    @Option(
            names = "--simulate-reasoning-tokens",
            paramLabel = "N",
            defaultValue = "0",
            description = "With --simulate: act as a reasoning model, the first N tokens of every streamed chat "
                    + "response being thinking (simulate --reasoning-tokens) (default: ${DEFAULT-VALUE}).")
    int simulateReasoningTokens;

    @Option(
            names = "--simulate-fault",
            paramLabel = "KIND[=VALUE][:PROB]",
            description =
                    "With --simulate: inject a fault into each request with probability PROB (default 1), drawn per "
                            + "request from --seed; repeatable. KIND: " + FaultPlan.SPEC_SYNTAX
                            + ". The initial test request "
                            + "draws too, and its failure stops the run as in vLLM. What each does to the run: docs/simulator.md.")
    List<String> simulateFaults = new ArrayList<>();

    /** The calibrated engine, with a KV cache of --simulate-kv-cache-tokens (and no longer a context) when given. */
    private SimulatorConfig defaultProfile(String servedName) {
        if (simulateKvCacheTokens == null) {
            return SimulatorConfig.defaultProfile(servedName, simulateSpeedup);
        }
        if (simulateKvCacheTokens < 2) {
            throw UserError.usage("--simulate-kv-cache-tokens must be >= 2, got " + simulateKvCacheTokens);
        }
        return SimulatorConfig.batching(
                servedName,
                EngineProfileBuilder.builder(EngineProfile.DEFAULT)
                        .maxModelLen(Math.min(EngineProfile.DEFAULT.maxModelLen(), simulateKvCacheTokens))
                        .kvCacheTokens(simulateKvCacheTokens)
                        .build()
                        .speedUp(simulateSpeedup));
    }

    /**
     * Starts the simulator when --simulate is given, else returns null (then no --simulate-* option
     * may be given). Bad options are usage errors.
     *
     * @param servedName the model name the simulator answers to
     * @param loraModules bench's --lora-modules, served as adapters (null for none)
     * @param tokenizer the load generator's tokenizer: the simulator counts prompt tokens with it
     * @param seed --seed, from which the faults are drawn
     */
    public SimulatorServer startOrNull(String servedName, List<String> loraModules, Tokenizer tokenizer, long seed)
            throws InterruptedException {
        if (!simulate) {
            if (!simulateFaults.isEmpty()) {
                throw UserError.usage(
                        "--simulate-fault needs --simulate: faults are injected by the built-in simulator");
            }
            if (simulateKvCacheTokens != null) {
                throw UserError.usage(
                        "--simulate-kv-cache-tokens needs --simulate: it sizes the built-in " + "simulator's KV cache");
            }
            if (simulateReasoningTokens != 0) {
                throw UserError.usage("--simulate-reasoning-tokens needs --simulate: the built-in simulator "
                        + "plays the reasoning model");
            }
            return null;
        }
        if (!(simulateSpeedup > 0)) {
            throw UserError.usage("--simulate-speedup must be > 0, got " + simulateSpeedup);
        }
        if (simulateKvCacheTokens != null && !simulateProfile.equals("default")) {
            throw UserError.usage("--simulate-kv-cache-tokens needs --simulate-profile default: the " + simulateProfile
                    + " profile has no KV cache");
        }
        SimulatorConfig config = switch (simulateProfile) {
            // Calibrated to vLLM's published load sweep (docs/simulator.md): TTFT grows with queueing, TPOT with the
            // batch.
            case "default" -> defaultProfile(servedName);
            // Ground truth for the client's own error: fixed 50 ms TTFT and 20 ms between tokens.
            case "deterministic" ->
                SimulatorConfig.deterministic(Duration.ofMillis(50), Duration.ofMillis(20))
                        .withServedModelNames(List.of(servedName));
            default ->
                throw UserError.usage("--simulate-profile must be default or deterministic, got " + simulateProfile);
        };
        FaultPlan faults;
        try {
            faults = FaultPlan.parse(simulateFaults, seed);
        } catch (IllegalArgumentException e) {
            throw UserError.usage("--simulate-fault: " + e.getMessage());
        }
        try {
            return SimulatorServer.start(config.withTokenizer(tokenizer)
                    .withFaults(faults)
                    .withLoraModules(loraModules == null ? List.of() : loraModules)
                    .withReasoningTokens(simulateReasoningTokens));
        } catch (IllegalArgumentException e) {
            throw UserError.usage(e.getMessage());
        }
    }
}
