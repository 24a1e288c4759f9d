package io.tokenpulse.cli.options;

import io.tokenpulse.runner.RunIds;
import io.tokenpulse.runner.UserError;
import io.tokenpulse.runner.sweep.SweepFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * {@code sweep}'s {@code --output-dir} and {@code --resume}: the folder a sweep writes, new or one to
 * continue. Neither is part of the sweep's flags that {@code sweep.json} keeps: they name the folder.
 */
public final class SweepFolderOptions {

    public static final String OUTPUT_DIR = "--output-dir";
    public static final String RESUME = "--resume";

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    @Option(
            names = OUTPUT_DIR,
            paramLabel = "DIR",
            description = "Where sweep.json, points/, summary.md and summary.csv go (default: ./sweep-<timestamp>).")
    Path outputDir;

    @Option(
            names = RESUME,
            paramLabel = "DIR",
            description =
                    "Continue the sweep in DIR with the flags stored in its sweep.json (give none, or the same again): points done there are skipped.")
    Path resume;

    /** Whether --resume continues a sweep. */
    public boolean resuming() {
        return resume != null;
    }

    /** --resume names the folder: another --output-dir beside it is a usage error. */
    public void validate() {
        if (resume != null && outputDir != null && !resume.equals(outputDir)) {
            throw UserError.usage(RESUME + " DIR continues the sweep in DIR: leave out " + OUTPUT_DIR);
        }
    }

    /** The sweep's folder: --resume's, else --output-dir, else a new one named after the time. */
    public Path folder() {
        if (resume != null) {
            return resume;
        }
        return outputDir != null ? outputDir : Path.of("sweep-" + STAMP.format(LocalDateTime.now()));
    }

    /** The sweep so far: DIR's sweep.json with --resume, else a new sweep (DIR must not hold one). */
    public SweepFile previous(Path dir) throws IOException {
        Path json = dir.resolve(SweepFile.NAME);
        if (resume == null) {
            if (Files.exists(json)) {
                throw UserError.usage(dir + " already holds a sweep; continue it with " + RESUME + " " + dir
                        + " or pass another " + OUTPUT_DIR);
            }
            return new SweepFile("sweep-" + RunIds.next(), null, List.of(), List.of(), null);
        }
        if (!Files.isRegularFile(json)) {
            throw UserError.usage(
                    RESUME + " " + dir + ": no " + SweepFile.NAME + " there; pass the folder a sweep wrote");
        }
        try {
            return SweepFile.read(json);
        } catch (IOException e) {
            throw UserError.usage(RESUME + " " + dir + ": " + SweepFile.NAME + " cannot be read ("
                    + e.getMessage().lines().findFirst().orElse("") + ")");
        }
    }
}
