package io.tokenpulse.producer;

import io.tokenpulse.producer.backend.Backend;
import io.tokenpulse.producer.backend.Backends;
import io.tokenpulse.producer.console.VllmLines;
import io.tokenpulse.producer.dataset.AgentTraceRequests;
import io.tokenpulse.producer.dataset.Dataset;
import io.tokenpulse.producer.dataset.Datasets;
import io.tokenpulse.producer.dataset.SampledRequest;
import io.tokenpulse.producer.http.StreamingHttpClient;
import io.tokenpulse.producer.publish.EventPublisher;
import io.tokenpulse.tokenizers.Tokenizer;
import java.io.PrintStream;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;

/**
 * Runs one load-generator shard of a benchmark the way vLLM's serving benchmark runs, while
 * publishing every request's and every streamed event's timing to Kafka.
 *
 * <p>In order: sample the dataset; wait for {@code <base url>/health}; send the initial single
 * prompt test run (dataset request 0; not counted, not published; its failure stops the run);
 * send {@code --num-warmups} copies of it (both {@link TestRun}); print
 * vLLM's traffic lines; open the warm connections; with several shards, wait at the
 * {@link StartBarrier} until all are ready; start the progress bar; anchor the schedule start and publish RunStarted;
 * send each request at {@code start + offset} from a scheduler that never waits on responses (only
 * on {@code --max-concurrency} permits); publish RequestStarted, one Chunk per timing event from the
 * I/O thread, and RequestFinished ({@link ShardRun}); once every request finished, flush Kafka for
 * at most {@link RunEnd#FLUSH_TIMEOUT} and publish RunFinished with the counts ({@link RunEnd}).
 *
 * <p>Stopping ({@link GeneratorOptions#stop()}, or an interrupt of the thread that runs it): no request is sent
 * after the stop; the requests in flight may finish for the drain timeout, then are cancelled; the
 * RunFinished record says the shard was interrupted. A stop before the schedule starts ends the run
 * with {@link InterruptedException} and publishes nothing. Once RunFinished is being published, a
 * stop does nothing: that record must not be cut short.
 *
 * <p>One generator, configured once ({@link GeneratorOptions}), runs one shard per {@link #run}
 * call; each run's own state lives in a {@link ShardRun}. The parts, each one job: the schedule
 * ({@link RequestPlan}), the sending ({@link Dispatcher}), the counters ({@link RunTally}), the stop
 * ({@link RunThread}, {@link Drain}) and the end ({@link RunEnd}).
 *
 * <p>Timing never waits on Kafka: publishing only appends to the publisher's bounded queue, and
 * what cannot be delivered is counted ({@link LoadResult#recordsNotDelivered()}). Server errors
 * are failed requests with reasons, never an exception. Only counters outlive a finished
 * request, so memory stays bounded in duration mode.
 */
public final class LoadGenerator {

    private final ShardRun.Parts parts;

    /**
     * A generator with {@link GeneratorOptions#defaults()}.
     *
     * @param publisher an open publisher; left open (the caller closes it)
     * @param tokenizer the tokenizer named by the settings' {@code workload().tokenizerId()}
     * @param out where vLLM's pre-run lines and the progress bar go
     */
    public LoadGenerator(EventPublisher publisher, Tokenizer tokenizer, PrintStream out) {
        this(publisher, tokenizer, out, GeneratorOptions.defaults());
    }

    /** As {@link #LoadGenerator(EventPublisher, Tokenizer, PrintStream)}, with {@code options}. */
    public LoadGenerator(EventPublisher publisher, Tokenizer tokenizer, PrintStream out, GeneratorOptions options) {
        this.parts = new ShardRun.Parts(publisher, tokenizer, out, Objects.requireNonNull(options, "options"));
    }

    /**
     * Runs the shard described by {@code settings} and returns its counts; logs nothing secret.
     *
     * @throws IllegalArgumentException when the dataset cannot be built from the settings
     * @throws IllegalStateException when the server is not ready within the readiness timeout, or
     *     the initial test run fails (vLLM's message, with the error)
     * @throws InterruptedException when stopped or interrupted before the schedule starts (nothing
     *     published). Later, a stop or an interrupt ends the schedule instead: the run drains, publishes
     *     its RunFinished, and returns counts marked {@link LoadResult#interrupted()}, with the thread's
     *     interrupt status cleared (the result carries it).
     */
    public LoadResult run(LoadSettings settings) throws InterruptedException {
        return run(
                settings, sample(settings, Datasets.create(settings.workload().dataset(), parts.tokenizer())));
    }

    /**
     * The run's requests, drawn before anything is timed, as vLLM does: a caller that measures the run
     * (its CPU, say), or that built the dataset already to check the options (so a large file is read
     * once), draws them itself and passes them to {@link #run(LoadSettings, List)}.
     */
    public static List<SampledRequest> sample(LoadSettings settings, Dataset dataset) {
        LoadSettings.Workload workload = settings.workload();
        return dataset.sample(workload.numPrompts(), workload.arrivals().seed());
    }

    /** As {@link #run(LoadSettings)}, with the requests already drawn by {@link #sample}. */
    public LoadResult run(LoadSettings settings, List<SampledRequest> samples) throws InterruptedException {
        RunThread thread = new RunThread(Thread.currentThread());
        parts.options().stop().thenRun(thread::stop);
        try {
            return run(settings, samples, thread);
        } finally {
            thread.finishing();
        }
    }

    /** Everything before the schedule starts, then the {@link ShardRun}. */
    private LoadResult run(LoadSettings settings, List<SampledRequest> samples, RunThread thread)
            throws InterruptedException {
        LoadSettings.Workload workload = settings.workload();
        PrintStream out = parts.out();
        HealthCheck.awaitReady(
                settings.target().healthUrl(),
                settings.readinessTimeout(),
                settings.target().insecure(),
                out);
        ExecutorService counting = Executors.newSingleThreadExecutor(daemon("tp-token-count"));
        try (StreamingHttpClient client = new StreamingHttpClient(
                parts.options().http().withInsecureTls(settings.target().insecure()))) {
            Backend backend = Backends.get(settings.target().backend());
            long testLatencyNs = TestRun.run(client, backend, settings, samples.get(0), out);
            VllmLines.traffic(workload.arrivals(), workload.maxConcurrency(), workload.durationMinutes(), out);
            Shard shard = new Shard(settings.shardIndex(), settings.shardCount());
            SendPlan plan = plan(workload, shard, samples);
            if (plan instanceof AgentRequestPlan) {
                out.println("Agent trace replay: sessions start at their trace times scaled by --trace-time-scale; each"
                        + " request is sent when its parents answered plus its tool time; --request-rate, --burstiness"
                        + " and --ramp-up-* do not apply");
            } else if (plan.ownTimes()) {
                out.println("Trace replay: each request is sent at its trace time scaled by --trace-time-scale;"
                        + " --request-rate, --burstiness and --ramp-up-* do not apply");
            }
            samples = null; // the plan holds what is still to send
            int warmConnections = WarmPool.open(
                    client,
                    settings.target().baseUrl(),
                    plan.ownTimes()
                            ? WarmPool.sizeForTimes(plan.plannedOffsetsNs(), workload.maxConcurrency(), testLatencyNs)
                            : WarmPool.size(
                                    workload.arrivals(), workload.maxConcurrency(), plan.plannedSize(), testLatencyNs));
            // after the test run and the warm pool, so that the shards' start-up costs do not skew their start
            Optional<ClockOffset> clock = shard.count() > 1
                    ? parts.options().startBarrier().await(shard.index(), shard.count(), out)
                    : Optional.empty();
            return new ShardRun(parts, settings, client, backend, counting)
                    .sendAll(plan, warmConnections, thread, clock);
        } finally {
            counting.shutdownNow();
        }
    }

    private static SendPlan plan(LoadSettings.Workload workload, Shard shard, List<SampledRequest> samples) {
        if (samples instanceof AgentTraceRequests agent) {
            return AgentRequestPlan.of(agent, shard);
        }
        if (Datasets.waitsForAnswers(workload.dataset().name())) {
            throw new IllegalStateException("bug: the agent trace's requests lost their graph on the way to the run");
        }
        return workload.durationMinutes() == null
                ? RequestPlan.fixed(workload.arrivals(), shard, samples)
                : RequestPlan.forDuration(workload.arrivals(), workload.durationNs(), shard, samples);
    }

    static ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
