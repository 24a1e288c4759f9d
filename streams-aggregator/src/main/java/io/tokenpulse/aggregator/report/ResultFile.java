package io.tokenpulse.aggregator.report;

import io.tokenpulse.schemas.python.PythonFloat;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * Where and how the result file is written, as vLLM does it: the default name
 * {@code {label or backend}-{request_rate}qps[-concurrency{N}]-{base_model_id}-{date}.json} (rate as Python
 * prints a float, e.g. {@code 4.0} or {@code inf}; base model id = the model after its last '/'; a ramp-up
 * has {@code ramp-up-{strategy}-{start}qps-{end}qps} in place of the rate),
 * {@code --result-filename} replacing it, {@code --result-dir} created and prepended, and
 * {@code --append-result} adding one JSON object per line. Not thread-safe for one file.
 */
public final class ResultFile {

    private ResultFile() {}

    /** vLLM's default file name. */
    public static String defaultName(RunConfig config) {
        return defaultName(config, null);
    }

    /** vLLM's default file name, starting with {@code label} ({@code --label}) instead of the backend when given. */
    public static String defaultName(RunConfig config, String label) {
        String baseModelId = config.modelId().substring(config.modelId().lastIndexOf('/') + 1);
        String concurrency = config.maxConcurrency().isPresent()
                ? "-concurrency" + config.maxConcurrency().getAsInt()
                : "";
        String rate = config.rampUp()
                .map(r -> "ramp-up-" + r.rampUpStrategy() + "-" + pythonNumber(r.rampUpStartRps()) + "qps-"
                        + pythonNumber(r.rampUpEndRps()) + "qps")
                .orElseGet(() -> PythonFloat.repr(config.requestRate()) + "qps");
        return (label == null ? config.backend() : label) + "-" + rate + concurrency + "-" + baseModelId + "-"
                + config.date() + ".json";
    }

    private static String pythonNumber(Number n) {
        return n instanceof Double d ? PythonFloat.repr(d) : n.toString();
    }

    /** The file to write: {@code resultFilename} or the default name, inside {@code resultDir} when given. */
    public static Path path(RunConfig config, Optional<Path> resultDir, Optional<String> resultFilename) {
        return path(config, null, resultDir, resultFilename);
    }

    /** As {@link #path(RunConfig, Optional, Optional)}, the default name starting with {@code label} when given. */
    public static Path path(RunConfig config, String label, Optional<Path> resultDir, Optional<String> resultFilename) {
        String name = resultFilename.filter(n -> !n.isBlank()).orElseGet(() -> defaultName(config, label));
        return resultDir.map(dir -> dir.resolve(name)).orElse(Path.of(name));
    }

    /**
     * Writes the result, replacing the file, or with {@code append} adding it on a new line of a
     * non-empty file. Creates the parent directories.
     */
    public static void write(Path file, ResultJson result, boolean append) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        String json = result.toJson();
        if (append) {
            boolean empty = !Files.exists(file) || Files.size(file) == 0;
            Files.writeString(
                    file,
                    empty ? json : "\n" + json,
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } else {
            Files.writeString(file, json, StandardCharsets.UTF_8);
        }
    }
}
