package io.tokenpulse.cli.options;

import io.tokenpulse.aggregator.report.ConsoleReport;
import io.tokenpulse.cli.report.RunReport;
import io.tokenpulse.runner.UserError;
import java.util.List;
import picocli.CommandLine.Option;

/** vLLM's result-file flags and the block's layout, shared by {@code bench} and {@code replay}. */
public final class ResultFileOptions {

    @Option(names = "--save-result", description = "Save benchmark results to a json file.")
    boolean saveResult;

    @Option(names = "--save-detailed", description = "Include per-request information in the saved results.")
    public boolean saveDetailed;

    @Option(names = "--append-result", description = "Append the benchmark result to the existing json file.")
    boolean appendResult;

    @Option(
            names = "--metadata",
            arity = "0..*",
            paramLabel = "KEY=VALUE",
            description = "Key-value pairs saved in the result JSON file.")
    List<String> metadata;

    @Option(names = "--result-dir", description = "Directory to save benchmark json results.")
    String resultDir;

    @Option(names = "--result-filename", description = "Filename to save benchmark json results.")
    String resultFilename;

    @Option(
            names = "--label",
            description =
                    "The label (prefix) of the result file name, saved as 'label' in the result JSON (default: the --backend name, and no 'label' key).")
    String label;

    @Option(
            names = "--vllm-block",
            paramLabel = "LAYOUT",
            defaultValue = "seed",
            description =
                    "Which vLLM's result block to print: seed (benchmark_serving.py of mid-2025, the layout most "
                            + "published vLLM results show) or current (vllm bench serve: Failed requests always, Request rate configured, "
                            + "the peak output token throughput and peak concurrent requests lines) (default: ${DEFAULT-VALUE}).")
    String vllmBlock;

    /**
     * The options as the report takes them; a malformed --metadata pair or a --result-dir that cannot be
     * written is a one-line usage error, before the run.
     */
    public RunReport.ResultOptions toResultOptions() {
        try {
            return RunReport.ResultOptions.of(
                            saveResult, saveDetailed, appendResult, resultDir, resultFilename, metadata, label)
                    .withBlock(block());
        } catch (IllegalArgumentException e) {
            throw UserError.usage(e.getMessage());
        }
    }

    private ConsoleReport.Layout block() {
        return switch (vllmBlock) {
            case "seed" -> ConsoleReport.Layout.SEED;
            case "current" -> ConsoleReport.Layout.CURRENT;
            default -> throw new IllegalArgumentException("--vllm-block must be seed or current, got " + vllmBlock);
        };
    }
}
