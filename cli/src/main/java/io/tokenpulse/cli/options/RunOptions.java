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
}
