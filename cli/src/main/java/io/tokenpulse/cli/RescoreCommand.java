package io.tokenpulse.cli;

import io.tokenpulse.aggregator.definitions.Comparison;
import io.tokenpulse.aggregator.definitions.ComparisonFormat;
import io.tokenpulse.aggregator.definitions.Definition;
import io.tokenpulse.aggregator.definitions.Definitions;
import io.tokenpulse.aggregator.definitions.StoredTimings;
import io.tokenpulse.aggregator.results.StoredRun;
import io.tokenpulse.aggregator.scoring.RunShards;
import io.tokenpulse.cli.options.StoredRunOptions;
import io.tokenpulse.cli.options.TableOutputOption;
import io.tokenpulse.cli.report.ScoredRun;
import io.tokenpulse.runner.Pipeline;
import io.tokenpulse.runner.UserError;
import io.tokenpulse.schemas.PipelineRole;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code tokenpulse rescore --run-id ID --as vllm,guidellm,...}: scores a stored run's request
 * timings by each tool's definitions ({@link Definitions}) side by side, and says where and why
 * they differ. Reads the run as {@code replay} does ({@link StoredRun}), with the same
 * {@code --allow-incomplete} rule.
 */
@Command(
        name = "rescore",
        sortOptions = false,
        mixinStandardHelpOptions = true,
        description =
                "Score a stored run by vLLM's, GuideLLM's, AIPerf's, SGLang's and inference-perf's definitions side by side, and say why they differ.")
final class RescoreCommand implements Callable<Integer> {

    @Option(names = "--run-id", required = true, description = "The run to score (as given to or printed by bench).")
    String runId;

    @Option(
            names = "--as",
            paramLabel = "TOOL[,TOOL...]",
            defaultValue = "vllm,guidellm,aiperf,sglang,inference-perf",
            description = "Tools whose definitions to score the run by, one column each (default: ${DEFAULT-VALUE}).")
    String tools;

    @Option(
            names = "--format",
            defaultValue = "markdown",
            paramLabel = "markdown|csv|json",
            description = "Output format (default: ${DEFAULT-VALUE}).")
    String format;

    @Mixin
    TableOutputOption output;

    @Option(
            names = "--allow-incomplete",
            description =
                    "Score a run that is not complete (a shard's RunFinished or request metrics missing) from what is stored; the output says what is missing.")
    boolean allowIncomplete;

    @Mixin
    StoredRunOptions storedRun;

    @Override
    public Integer call() throws IOException {
        // Everything that can be checked without Kafka first, so a typo fails at once.
        List<Definition> definitions;
        ComparisonFormat parsed;
        try {
            definitions = Definitions.parse(tools);
            parsed = ComparisonFormat.parse(format);
        } catch (IllegalArgumentException e) {
            throw UserError.usage(e.getMessage());
        }
        output.validate();
        Duration waitFor = storedRun.waitFor();
        Comparison comparison;
        try (Pipeline pipeline = storedRun.connect(PipelineRole.REPLAY)) {
            StoredRun run = ScoredRun.stored(pipeline, runId, waitFor, allowIncomplete);
            Optional<String> missing = run.missing();
            RunShards shards = run.storedShards()
                    .orElseThrow(() -> UserError.failure(
                            "run " + runId + " has no RunStarted record stored: nothing to score it by"));
            comparison = Comparison.of(runId, missing, StoredTimings.of(shards, run.requests()), definitions);
        }
        String text = parsed.render(comparison);
        output.write(text, "Scores");
        return 0;
    }
}
