package io.tokenpulse.acceptance;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The set-up the fault and scale-out tests share, each part its own {@code ./tokenpulse} process as
 * on separate machines: a {@code platform} (one broker or {@code --brokers 3}), a deterministic
 * {@code simulate} (TTFT 50 ms, 20 ms gaps), {@code aggregate}s with the flags the platform printed,
 * and the arguments of a {@code bench} of random prompts against the simulator. {@link #close} stops
 * the simulator and the platform (SIGTERM); aggregates and benches are the test's to end.
 */
final class SeparatePipeline implements AutoCloseable {

    static final Pattern AGGREGATOR_RUNNING = Pattern.compile("^Aggregator running: ");
    static final Pattern MAIN_RUN = Pattern.compile("^Burstiness factor: ");

    private final Tokenpulse tokenpulse;
    private final String[] platformArgs;
    private Tokenpulse.Background platform;
    private LocalSimulator simulator;
    private List<String> connection;

    private SeparatePipeline(Tokenpulse tokenpulse, String[] platformArgs) {
        this.tokenpulse = tokenpulse;
        this.platformArgs = platformArgs;
    }

    /** Starts {@code platform platformArgs...} and the simulator, and returns once both are ready. */
    static SeparatePipeline start(Tokenpulse tokenpulse, String... platformArgs) throws InterruptedException {
        SeparatePipeline pipeline = new SeparatePipeline(tokenpulse, platformArgs);
        try {
            pipeline.platform = tokenpulse.start(pipeline.platformCommand());
            pipeline.simulator =
                    LocalSimulator.start(tokenpulse, "--profile", "deterministic", "--ttft-ms", "50", "--gap-ms", "20");
            pipeline.connection = PlatformFlagsIT.printedFlags(pipeline.platform);
            return pipeline;
        } catch (InterruptedException | RuntimeException | AssertionError e) {
            pipeline.close();
            throw e;
        }
    }

    /**
     * A one-broker platform on {@code dataDir} with fixed free ports, so that it can be started again
     * where its clients expect it ({@link #startPlatformAgain}).
     */
    static SeparatePipeline startOneBroker(Tokenpulse tokenpulse, Path dataDir) throws InterruptedException {
        return start(
                tokenpulse,
                "--data-dir",
                dataDir.toString(),
                "--kafka-port",
                Integer.toString(FreePorts.one()),
                "--registry-port",
                Integer.toString(FreePorts.one()));
    }

    /** {@code --bootstrap-servers LIST --schema-registry-url URL}, as the platform printed them. */
    List<String> connection() {
        return connection;
    }

    String bootstrapServers() {
        return connection.get(1);
    }

    Tokenpulse.Background platform() {
        return platform;
    }

    /** Kills the platform (SIGKILL), as a crash would. */
    void killPlatform() throws InterruptedException {
        platform.kill();
    }

    /** Starts the platform again with its first flags (same data dir and ports) and waits until it is ready. */
    void startPlatformAgain() throws InterruptedException {
        platform = tokenpulse.start(platformCommand());
        PlatformFlagsIT.printedFlags(platform);
    }

    /** {@code command} with the platform's flags and {@code more}. */
    List<String> args(String command, String... more) {
        return PlatformFlagsIT.args(command, connection, more);
    }

    /**
     * {@code aggregate} started by {@code as} (its own {@code HOME} when the test gives it one), with
     * the platform's flags, no fixed {@code /metrics} port and {@code more}; returned once running.
     */
    Tokenpulse.Background aggregate(Tokenpulse as, String... more) throws InterruptedException {
        List<String> args = args("aggregate", "--metrics-port", "0");
        args.addAll(List.of(more));
        Tokenpulse.Background aggregate = as.start(args.toArray(String[]::new));
        try {
            aggregate.awaitLine(AGGREGATOR_RUNNING, Duration.ofSeconds(120));
        } catch (InterruptedException | RuntimeException | AssertionError e) {
            aggregate.close();
            throw e;
        }
        return aggregate;
    }

    /**
     * The arguments of a {@code bench} against the simulator on the platform: {@code requests} random
     * prompts of 16 tokens asking {@code outputLen} tokens each at {@code rate} req/s, its result saved
     * as {@code results/resultFile}, then {@code more}.
     */
    List<String> bench(int requests, int outputLen, double rate, Path results, String resultFile, String... more) {
        List<String> args = new ArrayList<>(args(
                "bench",
                "--base-url",
                simulator.baseUrl(),
                "--model",
                "facebook/opt-125m",
                "--dataset-name",
                "random",
                "--num-prompts",
                Integer.toString(requests),
                "--random-input-len",
                "16",
                "--random-output-len",
                Integer.toString(outputLen),
                "--request-rate",
                Double.toString(rate),
                "--metrics-port",
                "0",
                "--disable-tqdm",
                "--save-result",
                "--result-dir",
                results.toString(),
                "--result-filename",
                resultFile));
        args.addAll(List.of(more));
        return args;
    }

    private String[] platformCommand() {
        List<String> args = new ArrayList<>(List.of("platform"));
        args.addAll(List.of(platformArgs));
        return args.toArray(String[]::new);
    }

    @Override
    public void close() {
        if (simulator != null) {
            simulator.close();
        }
        if (platform != null) {
            platform.close();
        }
    }
}
