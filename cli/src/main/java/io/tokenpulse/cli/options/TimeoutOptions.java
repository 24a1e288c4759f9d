package io.tokenpulse.cli.options;

import io.tokenpulse.producer.http.HttpClientSettings;
import io.tokenpulse.runner.RunPlan;
import io.tokenpulse.runner.UserError;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * How long bench waits on the run's summary, on a request and on the end of an interrupted run: the
 * limits that keep a stalled pipeline or server, a half-open connection or a Ctrl-C from hanging a run.
 */
public final class TimeoutOptions {

    @Option(
            names = "--summary-timeout-s",
            defaultValue = "120",
            description =
                    "How long to wait for the run summary after the last response, in s (default: ${DEFAULT-VALUE}).")
    int summaryTimeoutS;

    @Option(
            names = "--request-timeout-s",
            defaultValue = "21600",
            description =
                    "Longest a request may take from sent to its last byte, in s; past it the request fails with its reason (default: ${DEFAULT-VALUE}, vLLM's client's 6 h).")
    long requestTimeoutS;

    @Option(
            names = "--stream-idle-timeout-s",
            defaultValue = "600",
            description =
                    "Longest silence of a request's response, before its first byte or between two chunks, in s; past it the request fails with its reason (default: ${DEFAULT-VALUE}).")
    long streamIdleTimeoutS;

    @Option(
            names = "--drain-timeout-s",
            defaultValue = "30",
            description =
                    "After Ctrl-C or SIGTERM: how long the requests in flight may take to finish before they are cancelled, in s (default: ${DEFAULT-VALUE}; a second Ctrl-C stops at once).")
    long drainTimeoutS;

    /** A year: longer limits mean none, and would overflow the client's nanosecond timers. */
    private static final long MAX_S = 365L * 24 * 3600;

    /** Fails with one line naming the flag when a limit is out of range. */
    public void validate() {
        if (summaryTimeoutS < 1) {
            throw UserError.usage("--summary-timeout-s must be >= 1, got " + summaryTimeoutS);
        }
        positive("--request-timeout-s", requestTimeoutS);
        positive("--stream-idle-timeout-s", streamIdleTimeoutS);
        if (drainTimeoutS < 0 || drainTimeoutS > MAX_S) {
            throw UserError.usage(
                    "--drain-timeout-s must be between 0 and " + MAX_S + " (a year), got " + drainTimeoutS);
        }
    }

    private static void positive(String flag, long seconds) {
        if (seconds < 1 || seconds > MAX_S) {
            throw UserError.usage(flag + " must be between 1 and " + MAX_S + " (a year), got " + seconds);
        }
    }

    /** The HTTP client's settings with these limits. */
    HttpClientSettings http() {
        return HttpClientSettings.defaults()
                .withTimeouts(Duration.ofSeconds(requestTimeoutS), Duration.ofSeconds(streamIdleTimeoutS));
    }

    /** The run's limits, with {@code shardStart} (--shard-start-timeout-s) for the shards' start barrier. */
    public RunPlan.Timeouts timeouts(Duration shardStart) {
        return new RunPlan.Timeouts(http(), drain(), Duration.ofSeconds(summaryTimeoutS), shardStart);
    }

    Duration drain() {
        return Duration.ofSeconds(drainTimeoutS);
    }
}
