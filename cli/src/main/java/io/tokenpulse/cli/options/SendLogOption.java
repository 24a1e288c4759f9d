package io.tokenpulse.cli.options;

import io.tokenpulse.runner.UserError;
import io.tokenpulse.simulator.SendLogFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code simulate --send-log}: every streamed event's send time in a CSV file, the ground truth of a client's timestamps. */
public final class SendLogOption {

    @Option(
            names = "--send-log",
            paramLabel = "FILE",
            description = "Write every streamed event's send time to FILE as CSV (request_id,event,due_ns,sent_ns,"
                    + "sent_unix_ns): ground truth for a client's timestamps, e.g. with --profile deterministic.")
    Path sendLog;

    /** The send log, open; null without --send-log. A file that cannot be written fails the command. */
    public SendLogFile open() {
        if (sendLog == null) {
            return null;
        }
        try {
            return SendLogFile.open(sendLog);
        } catch (IOException e) {
            throw UserError.failure("cannot write the send log " + sendLog + " (" + e.getMessage()
                    + "); give --send-log a writable file");
        }
    }

    /** Closes {@code log}, and tells {@code err} when it failed or missed events. */
    public static void close(SendLogFile log, PrintWriter err) {
        try {
            log.close();
        } catch (UncheckedIOException e) {
            err.println("simulate: " + e.getMessage());
        }
        if (log.dropped() > 0) {
            err.println("simulate: " + log.dropped() + " events not in the send log " + log.path()
                    + " (its writer fell " + SendLogFile.MAX_QUEUED + " records behind or the file failed)");
        }
        err.flush();
    }
}
