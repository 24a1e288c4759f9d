package io.tokenpulse.cli;

import java.util.List;
import picocli.CommandLine.Option;

/** vLLM's result-file flags, shared by {@code bench} and {@code replay}. */
final class ResultFileOptions {

    @Option(names = "--save-result", description = "Save benchmark results to a json file.")
    boolean saveResult;

    @Option(names = "--save-detailed", description = "Include per-request information in the saved results.")
    boolean saveDetailed;

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

    /**
     * The options as the report takes them; a malformed --metadata pair or a --result-dir that cannot be
     * written is a one-line usage error, before the run.
     */
    RunReport.ResultOptions toResultOptions() {
        try {
            return RunReport.ResultOptions.of(
                    saveResult, saveDetailed, appendResult, resultDir, resultFilename, metadata, label);
        } catch (IllegalArgumentException e) {
            throw UserError.usage(e.getMessage());
        }
    }
}
