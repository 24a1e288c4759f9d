package io.tokenpulse.cli.options;

import io.tokenpulse.runner.UserError;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --output FILE} of the commands that print a table: the table goes to FILE instead. */
public final class TableOutputOption {

    @Option(names = "--output", paramLabel = "FILE", description = "Write the table to FILE instead of printing it.")
    Path output;

    /** A file in a folder that does not exist is a usage error, before anything is read. */
    public void validate() {
        if (output != null) {
            Path parent = output.toAbsolutePath().getParent();
            if (!Files.isDirectory(parent)) {
                throw UserError.usage("--output " + output + ": folder " + parent + " does not exist");
            }
        }
    }

    /** Prints {@code table}, or writes it to --output and says so: "{@code what} saved to FILE". */
    public void write(String table, String what) throws IOException {
        if (output == null) {
            System.out.print(table);
        } else {
            Files.writeString(output, table, StandardCharsets.UTF_8);
            System.out.println(what + " saved to " + output);
        }
    }
}
