package io.tokenpulse.simulator.engine;

/**
 * A continuous-batching engine as a {@link LatencyModel}: one engine loop per simulator runs steps
 * back to back on one thread; each step's batch and cost come from {@link BatchingEngine} and
 * {@link EngineProfile}, and at the end of a step every request in it gets its token. TTFT so grows
 * with queueing and prompt length, and the gap between tokens with the batch.
 *
 * <p>Steps follow each other at their planned times (the next starts when the previous was due to
 * end), so a late timer delays the sending of tokens but not the simulated schedule. A CPU engine
 * ({@link EngineProfile#cpuUsPerToken()} > 0) computes each step on the engine thread before its
 * tokens are due, and a step ends no earlier than that work: when the host's other processes take
 * the core, the engine runs slower.
 *
 * <p>Threading: {@link #generate} may be called from any thread; the engine runs on its own.
 */
public final class BatchingModel implements LatencyModel {

    private final EngineProfile profile;
    private final EngineClock clock;
    private final BatchingEngine engine;
    /** The steps' computation; null when the engine costs no CPU. */
    private final CpuWork cpu;
    /** Confined to the engine thread: a step is planned or running. */
    private boolean stepping;
    /** Written by the engine thread after each change of its queues, read by /metrics. */
    private volatile EngineState state = new EngineState(0, 0, 0, 0, 0, 0);

    public BatchingModel(EngineProfile profile) {
        this(profile, new ThreadEngineClock());
    }

    BatchingModel(EngineProfile profile, EngineClock clock) {
        this.profile = profile;
        this.clock = clock;
        this.engine = new BatchingEngine(profile);
        this.cpu = profile.cpuUsPerToken() > 0 ? new CpuWork() : null;
    }

    public EngineProfile profile() {
        return profile;
    }

    @Override
    public void generate(Generation generation) {
        clock.schedule(() -> admit(generation), generation.receivedNs() + profile.frontendNs());
    }

    private void admit(Generation generation) {
        engine.add(generation);
        state = engine.state();
        if (!stepping) {
            stepping = true;
            // A task, not a direct call: requests that arrive at the same instant join the first step together.
            clock.schedule(() -> step(clock.nowNs()), clock.nowNs());
        }
    }

    private void step(long startNs) {
        BatchingEngine.Step step = engine.plan();
        state = engine.state();
        if (step == null) {
            stepping = false;
            return;
        }
        long endNs = endOf(step, startNs);
        clock.schedule(
                () -> {
                    engine.complete(step, endNs);
                    state = engine.state();
                    step(endNs);
                },
                endNs);
    }

    /** Computes the step, for a CPU engine; its end: its modelled time after the start, or when the computation ended. */
    private long endOf(BatchingEngine.Step step, long startNs) {
        long modelledEnd = startNs + step.durationNs();
        if (step.cpuNs() == 0) {
            return modelledEnd;
        }
        cpu.run(step.cpuNs());
        return Math.max(modelledEnd, clock.nowNs());
    }

    @Override
    public EngineState state(int inFlight, long promptTokens) {
        return state;
    }

    @Override
    public void close() {
        clock.close();
    }
}
