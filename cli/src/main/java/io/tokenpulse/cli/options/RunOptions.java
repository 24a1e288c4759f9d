package io.tokenpulse.cli.options;

import picocli.CommandLine.Option;

/** {@code bench}'s options of the run itself: the progress bar, the profiler, request and run ids, shards. */
public final class RunOptions {

    @Option(names = "--disable-tqdm", description = "Disable the progress bar.")
    public boolean disableTqdm;

    @Option(
            names = "--profile",
            description =
                    "Use Torch Profiler: POST /start_profile before the run (before the initial test request) and /stop_profile after the report. The endpoint must be launched with VLLM_TORCH_PROFILER_DIR to enable profiler.")
    public boolean profile;

    @Option(
            names = "--request-id-prefix",
            defaultValue = "benchmark-serving",
            description =
                    "Prefix of every request's x-request-id; the request's dataset index follows (default: ${DEFAULT-VALUE}).")
    public String requestIdPrefix;

    @Option(names = "--run-id", description = "Identifier of the run (default: generated).")
    public String runId;

    @Option(
            names = "--shard-index",
            defaultValue = "0",
            description = "This load generator's index when several share one run.")
    public int shardIndex;

    @Option(names = "--shard-count", defaultValue = "1", description = "Number of load generators in the run.")
    public int shardCount;

    @Option(
            names = "--shard-start-timeout-s",
            defaultValue = "120",
            description =
                    "With --shard-count above 1: how long this shard waits for the others of its run (announced on the shard-barrier topic) before its load, in s; all then start at one instant (default: ${DEFAULT-VALUE}).")
    public long shardStartTimeoutS;

    /** How long a shard waits for the others at the start barrier; one line when out of range. */
    public java.time.Duration shardStartTimeout() {
        if (shardStartTimeoutS < 1 || shardStartTimeoutS > 86_400) {
            throw io.tokenpulse.runner.UserError.usage(
                    "--shard-start-timeout-s must be between 1 and 86400 (a day), got " + shardStartTimeoutS);
        }
        return java.time.Duration.ofSeconds(shardStartTimeoutS);
    }
}
