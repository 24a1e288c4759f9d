package io.tokenpulse.cli.options;

import io.tokenpulse.runner.UserError;
import io.tokenpulse.runner.sweep.SweepRows;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Option;

/** {@code sweep}'s {@code --serve-cmd} and {@code --serve-params}: the server a sweep starts, once per setting. */
public final class ServeOptions {

    @Option(
            names = "--serve-cmd",
            paramLabel = "CMD",
            description =
                    "Start this server (a shell command) for each --serve-params setting, with the setting's flags appended; wait for its /health (--ready-check-timeout-sec), run the points, stop it.")
    String serveCmd;

    @Option(
            names = "--serve-params",
            paramLabel = "FILE",
            description =
                    "JSON list of server flag maps, or an object of name -> flag map: one server setting per row.")
    Path serveParams;

    /** The server's command; null when the sweep starts none. */
    public String command() {
        return serveCmd;
    }

    /** --serve-params are flags of the server --serve-cmd starts: one without the other is a usage error. */
    public void validate() {
        if (serveParams != null && serveCmd == null) {
            throw UserError.usage("--serve-params needs --serve-cmd: the settings are flags of the server it starts");
        }
    }

    /** The rows of --serve-params; none without it. A bad file throws IllegalArgumentException. */
    public List<SweepRows.Row> rows() {
        return serveParams == null ? List.of() : SweepRows.read("--serve-params", serveParams);
    }
}
