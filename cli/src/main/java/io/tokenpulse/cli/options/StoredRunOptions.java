package io.tokenpulse.cli.options;

import io.tokenpulse.runner.Pipeline;
import io.tokenpulse.runner.UserError;
import io.tokenpulse.schemas.PipelineRole;
import java.time.Duration;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * What the commands that read a stored run take (replay, rescore, export, compare, report): how long
 * to wait for a run that has not finished ({@code --wait-s}), and where the pipeline is.
 */
public final class StoredRunOptions {

    @Option(
            names = "--wait-s",
            defaultValue = "10",
            description =
                    "How long to wait for a stored run that has not finished yet, in s (default: ${DEFAULT-VALUE}).")
    int waitS;

    @Mixin
    KafkaOptions kafka;

    /** The wait, checked: call before connecting, so that a mistake fails at once. */
    public Duration waitFor() {
        if (waitS < 0) {
            throw UserError.usage("--wait-s must be >= 0, got " + waitS);
        }
        return Duration.ofSeconds(waitS);
    }

    /** Connects to the pipeline the Kafka options name, as {@code role}. */
    public Pipeline connect(PipelineRole role) {
        return Pipeline.connect(kafka.settings(), role);
    }
}
