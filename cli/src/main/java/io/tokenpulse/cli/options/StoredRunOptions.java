package io.tokenpulse.cli.options;

import io.tokenpulse.runner.UserError;
import java.time.Duration;
import picocli.CommandLine.Option;

/** {@code --wait-s}: how long the commands that read a stored run wait for one that has not finished. */
public final class StoredRunWait {

    @Option(
            names = "--wait-s",
            defaultValue = "10",
            description =
                    "How long to wait for a stored run that has not finished yet, in s (default: ${DEFAULT-VALUE}).")
    int waitS;

    /** The wait, checked: call before connecting, so that a mistake fails at once. */
    public Duration duration() {
        if (waitS < 0) {
            throw UserError.usage("--wait-s must be >= 0, got " + waitS);
        }
        return Duration.ofSeconds(waitS);
    }
}
